// A reporter for Node's test runner, beside the spec reporter: it sums each file's top-level tests
// and suites and, when the run ends, records the sums (test-durations.ts) for the next run's order.
// It prints nothing. The file it writes is named by TRL_TEST_DURATIONS_FILE.
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { recordTestDurations, type TestDurations } from './test-durations.ts';

export const testDurationsFileEnv = 'TRL_TEST_DURATIONS_FILE';

interface TestEvent {
  type: string;
  data?: { nesting?: number; file?: string; details?: { duration_ms?: number } };
}

export default async function* testDurationsReporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const seconds: TestDurations = {};
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, details } = event.data ?? {};
    if (nesting !== 0 || !file || typeof details?.duration_ms !== 'number') continue;
    const name = path.relative(repoRoot, file);
    seconds[name] = (seconds[name] ?? 0) + details.duration_ms / 1000;
  }
  const target = process.env[testDurationsFileEnv];
  if (target) await recordTestDurations(target, Object.fromEntries(Object.entries(seconds).map(([file, s]) => [file, Math.round(s * 10) / 10])));
  yield* [];
}
