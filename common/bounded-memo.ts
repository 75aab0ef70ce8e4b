// A memo of a pure function of a string, bounded by the characters of the keys it holds: the least
// recently used entries go first. Keys longer than the per-entry bound are computed, never kept, so
// whatever a caller is sent costs at most the bound in memory.
export interface BoundedMemoLimits {
  /** Sum of the kept keys' lengths. */
  maxChars: number;
  /** A longer key is computed every time. */
  maxEntryChars: number;
}

/** V is never undefined: undefined marks a key not held. */
export class BoundedMemo<V extends NonNullable<unknown>> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  constructor(
    private readonly compute: (key: string) => V,
    private readonly limits: BoundedMemoLimits,
  ) {}

  get(key: string): V {
    const known = this.entries.get(key);
    if (known !== undefined) {
      // Map keeps insertion order: re-inserting makes this the most recently used.
      this.entries.delete(key);
      this.entries.set(key, known);
      return known;
    }
    const value = this.compute(key);
    if (key.length > this.limits.maxEntryChars) return value;
    this.entries.set(key, value);
    this.chars += key.length;
    while (this.chars > this.limits.maxChars) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.chars -= oldest.length;
    }
    return value;
  }

  /** Entries and characters held, for tests and benches. */
  size(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.chars };
  }
}
