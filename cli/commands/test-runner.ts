// The suite's runner process: Node's test runner through its run() API, since its command line sorts
// the files by path and so cannot start the longest first. Each file still runs in a process of
// its own; the spec reporter prints; each file's top-level tests and suites are summed and
// recorded (test-durations.ts) for the next run's order. Started by `trl test` as
// `node --import tsx test-runner.ts CONCURRENCY FILE…` (the children inherit --import tsx).
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import path from 'node:path';
import { repoRoot, testDurationsFile } from '../../common/data-layout.ts';
import { addTopLevelDuration, recordTestDurations, type TestDurations, type TestEventData } from './test-durations.ts';

const [concurrencyArg, ...files] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
if (!Number.isInteger(concurrency) || concurrency < 1 || files.length === 0) {
  process.stderr.write('usage: test-runner.ts CONCURRENCY FILE…\n');
  process.exit(2);
}

const seconds: TestDurations = {};
const count = (data: TestEventData) => addTopLevelDuration(seconds, data, repoRoot);

const stream = run({ files: files.map((file) => path.resolve(repoRoot, file)), concurrency });
stream.on('test:pass', count);
stream.on('test:fail', (data: TestEventData) => {
  process.exitCode = 1;
  count(data);
});
const reported = stream.compose(new spec());
reported.pipe(process.stdout);
reported.on('end', () => {
  recordTestDurations(testDurationsFile, seconds, repoRoot).catch((error: unknown) => {
    process.stderr.write(`trl: could not record the test durations in ${testDurationsFile}: ${String(error)}\n`);
  });
});
