// How long each test file took in the last `trl test` that ran it, and the order that follows.
// Node's runner starts files in the order given, so a long file that starts last leaves the other
// slots idle at the end (the worker-crash suite mostly waits on Temporal's timeouts: 3½ minutes
// alone at the end of an alphabetical run). Longest first keeps every slot busy until the end.
// The figures are only an order: a stale or missing one makes a run slower, never wrong. A seed
// from a full run is kept in git (test/durations-seed.json) for fresh clones; refresh it by copying
// .cache/test-durations.json after a full `trl test` when the suite's shape has changed.
import { readFile, rename, writeFile, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { unitBatchFileName } from './test-batch.ts';

const durationsSchema = z.record(z.string(), z.number().nonnegative());
export type TestDurations = z.infer<typeof durationsSchema>;

/** Durations by repo-relative file, in seconds; none when the file is missing or not ours. */
export async function readTestDurations(file: string): Promise<TestDurations> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return {};
  try {
    const parsed = durationsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** What the runner's pass and fail events carry that the durations need. */
export interface TestEventData {
  nesting?: number;
  file?: string;
  name?: string;
  details?: { duration_ms?: number };
}

/**
 * Adds a finished test to its file's sum when it is top-level (a file's tests and suites; nested ones
 * are inside their suite's). In the unit batch each top-level suite is a file, named by its path.
 */
export function addTopLevelDuration(seconds: TestDurations, data: TestEventData, root: string): void {
  if (data.nesting !== 0 || !data.file || typeof data.details?.duration_ms !== 'number') return;
  const name = path.basename(data.file) === unitBatchFileName && data.name ? data.name : path.relative(root, data.file);
  seconds[name] = (seconds[name] ?? 0) + data.details.duration_ms / 1000;
}

/**
 * Adds a run's durations (seconds, by file relative to `root`) to the earlier ones, rounded to a
 * tenth; a filtered run keeps the others' figures, but only of files that still exist (a renamed
 * file, or the temporary fixtures of test-command-signal.test.ts's inner run, would otherwise stay
 * in the record for good).
 */
export async function recordTestDurations(file: string, measured: TestDurations, root: string): Promise<TestDurations> {
  const rounded = Object.fromEntries(Object.entries(measured).map(([name, s]) => [name, Math.round(s * 10) / 10]));
  const earlier = Object.entries(await readTestDurations(file)).filter(([name]) => !(name in rounded));
  const exists = await Promise.all(
    earlier.map(([name]) =>
      stat(path.join(root, name)).then(
        () => true,
        () => false,
      ),
    ),
  );
  const merged = { ...Object.fromEntries(earlier.filter((_, index) => exists[index])), ...rounded };
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(merged, null, 1)}\n`);
  await rename(partial, file);
  return merged;
}

/**
 * Integration suites without a figure first (new ones: they start workers and containers, so
 * they are assumed long), then the files with one, longest first, then the other files without.
 * Ties keep the path order, so the order is stable.
 */
export function orderTestFiles(files: string[], durations: TestDurations): string[] {
  const integration = `test${path.sep}integration${path.sep}`;
  const weight = (file: string): [number, number] => {
    const known = durations[file];
    if (known !== undefined) return [1, -known];
    return [file.startsWith(integration) ? 0 : 2, 0];
  };
  return files
    .map((file, index) => ({ file, index, weight: weight(file) }))
    .sort((a, b) => a.weight[0] - b.weight[0] || a.weight[1] - b.weight[1] || a.index - b.index)
    .map((entry) => entry.file);
}
