// A one-line progress bar on a terminal (stage changes as plain lines otherwise), drawn from the
// workflow's progress query.
import type { EvaluationProgress } from '../contracts/progress.ts';

export class ProgressView {
  private lastLine = '';
  private readonly tty = process.stderr.isTTY === true;
  private readonly startedMs = performance.now();

  update(progress: EvaluationProgress): void {
    const total = progress.scenarios.length;
    const done = progress.scenarios.filter((s) => s.phase === 'done').length;
    const active = progress.scenarios
      .filter((s) => s.phase !== 'done' && s.phase !== 'queued')
      .map((s) => `${s.name}:${s.phase}`);
    const width = 24;
    const filled = total === 0 ? 0 : Math.round((done / total) * width);
    const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
    const elapsed = ((performance.now() - this.startedMs) / 1000).toFixed(0);
    const line =
      progress.stage === 'scenarios'
        ? `${bar} ${done}/${total} scenarios  ${elapsed}s  ${active.join(' ')}`
        : `${progress.stage}...  ${elapsed}s`;
    if (this.tty) {
      process.stderr.write(`\r\x1b[2K${line.slice(0, (process.stderr.columns ?? 120) - 1)}`);
    } else {
      const summary = progress.stage === 'scenarios' ? `${done}/${total} scenarios done` : progress.stage;
      if (summary !== this.lastLine) process.stderr.write(`trl: ${summary}\n`);
      this.lastLine = summary;
    }
  }

  finish(): void {
    if (this.tty) process.stderr.write('\r\x1b[2K');
  }
}
