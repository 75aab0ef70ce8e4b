// A bounded log that keeps its first lines and its last ones: a policy's own junk at the start of
// policy.log must not hide what it printed last (the crash, the traceback). Lines past the head go
// through a ring of the tail; what fell between is counted and said where it was cut.

export class HeadTailLines {
  private readonly head: string[] = [];
  private readonly tail: string[] = [];
  private tailStart = 0;
  private cut = 0;

  constructor(
    private readonly headLines: number,
    private readonly tailLines: number,
  ) {}

  push(line: string): void {
    if (this.head.length < this.headLines) {
      this.head.push(line);
      return;
    }
    if (this.tailLines === 0) {
      this.cut += 1;
      return;
    }
    if (this.tail.length < this.tailLines) {
      this.tail.push(line);
      return;
    }
    this.tail[this.tailStart] = line;
    this.tailStart = (this.tailStart + 1) % this.tailLines;
    this.cut += 1;
  }

  /** Lines dropped from the middle. */
  get cutLines(): number {
    return this.cut;
  }

  lines(): string[] {
    const tail = [...this.tail.slice(this.tailStart), ...this.tail.slice(0, this.tailStart)];
    return this.cut > 0
      ? [
          ...this.head,
          `[… ${this.cut} line${this.cut === 1 ? '' : 's'} cut here: the log keeps its first ${this.headLines} and last ${this.tailLines} lines …]`,
          ...tail,
        ]
      : [...this.head, ...tail];
  }
}
