// A reporter for Node's test runner, beside the spec reporter: it sums each file's top-level tests
// and suites and, when the run ends, writes the sums in seconds as JSON to the file named by
// TRL_TEST_DURATIONS_FILE; `trl test` adds them to its record (test-durations.ts). It prints nothing.
// Plain JavaScript: the runner loads reporters before tsx's loader is in place.
import { writeFile } from 'node:fs/promises';

export default async function* testDurationsReporter(source) {
  const seconds = {};
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, details } = event.data ?? {};
    if (nesting !== 0 || !file || typeof details?.duration_ms !== 'number') continue;
    seconds[file] = (seconds[file] ?? 0) + details.duration_ms / 1000;
  }
  const target = process.env.TRL_TEST_DURATIONS_FILE;
  if (target) await writeFile(target, JSON.stringify(seconds));
}
