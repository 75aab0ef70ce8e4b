// The scans' worker threads: kept warm between tasks, one task at a time each, and a thread whose
// task passed its limit is ended, never handed the next pack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  offLoopIdleThreads,
  offLoopThreadsStarted,
  runOffLoop,
  ScanTimeLimitError,
  maxIdleOffLoopThreads,
} from './off-loop.ts';
import type { CanonicalPack } from '../packs/canonical-pack.ts';
import type { ScenarioFingerprints } from './scenario-fingerprints.ts';
import { defaultScanThresholds } from './scan-thresholds.ts';

const pack = (text: string): CanonicalPack => ({ schema_version: 1, files: { 'SKILL.md': text } }) as CanonicalPack;
const skill = (n: number | string) => `a skill that reads the csv number ${n} and writes the report of its sales`;
const similarity = (candidate: string, others: string[] = []) => ({
  task: 'similarity' as const,
  candidate: pack(candidate),
  others: others.map((text, i) => ({ packHash: `h${i}`, pack: pack(text) })),
  threshold: 0.1,
});

test('tasks one after another share one warm thread, and each gets its own answer', async () => {
  const first = await runOffLoop(
    similarity('a skill that reads the csv and writes the report', [
      'a skill that reads the csv and writes the report',
    ]),
  );
  assert.deepEqual(
    first.map((copy) => copy.packHash),
    ['h0'],
  );
  const started = offLoopThreadsStarted();
  for (let i = 0; i < 5; i++) {
    const copies = await runOffLoop(
      similarity(`unrelated text number ${i} about nothing in particular`, [
        'a skill that reads the csv and writes the report',
      ]),
    );
    assert.deepEqual(copies, []);
  }
  assert.equal(offLoopThreadsStarted(), started, 'no thread started for the later tasks');
});

test('overlapping tasks run on threads of their own; afterwards at most the idle bound is kept', async () => {
  const before = offLoopThreadsStarted();
  const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => runOffLoop(similarity(skill(i), [skill(i)]))));
  assert.ok(answers.every((copies) => copies.length === 1));
  const started = offLoopThreadsStarted() - before;
  assert.ok(
    started >= 4 - maxIdleOffLoopThreads - 1 && started <= 4,
    `${started} threads started for 4 overlapping tasks`,
  );
  const again = offLoopThreadsStarted();
  await Promise.all(Array.from({ length: maxIdleOffLoopThreads }, (_, i) => runOffLoop(similarity(`more ${i}`))));
  assert.equal(offLoopThreadsStarted(), again, 'the kept threads serve the next tasks');
});

test('a task past its limit ends its thread, which never serves another; the next tasks are answered', async () => {
  await runOffLoop(similarity('warm up'));
  const idleBefore = offLoopIdleThreads();
  assert.ok(idleBefore >= 1);
  const others = Array.from({ length: 60 }, () => randomBytes(12_000).toString('base64'));
  await assert.rejects(runOffLoop(similarity(randomBytes(12_000).toString('base64'), others), 1), ScanTimeLimitError);
  assert.equal(offLoopIdleThreads(), idleBefore - 1, 'the timed-out thread did not go back to the idle ones');
  for (let i = 0; i < maxIdleOffLoopThreads + 1; i++) {
    const copies = await runOffLoop(similarity(skill(`after the slow one ${i}`), [skill(`after the slow one ${i}`)]));
    assert.equal(copies.length, 1);
  }
});

test('idle threads do not keep a process alive', async () => {
  const script = `import { runOffLoop } from ${JSON.stringify(path.join(import.meta.dirname, 'off-loop.ts'))};
await runOffLoop({ task: 'similarity', candidate: { schema_version: 1, files: { 'SKILL.md': 'x' } }, others: [], threshold: 0.1 });
console.log('answered');`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { timeout: 30_000 },
  );
  assert.equal(stdout.trim(), 'answered', 'the process ended by itself after the answer');
});

test('a thread keeps the fingerprints it was sent, by digest: the same set is not sent again, a new set replaces it', async () => {
  const fingerprints = (digest: string, text: string): ScenarioFingerprints => ({
    version: 1,
    digest,
    scenarios: ['csv-report'],
    skipped: [],
    fingerprints: [{ kind: 'solution-line', scenario: 'csv-report', text, display: text }],
  });
  const first = fingerprints('digest-a', 'awk sum column three into totals json');
  const second = fingerprints('digest-b', 'sed rewrite the header row twice');
  const scan = (text: string, set: ScenarioFingerprints) =>
    runOffLoop({
      task: 'scan',
      input: { pack: pack(`# Skill\n\n${text}\n`) },
      fingerprints: set,
      thresholds: defaultScanThresholds,
    });
  const seen = (result: { evidence: { scenario?: string }[] }) => result.evidence.length;
  // One thread, so the later tasks meet the set it holds.
  await Promise.all([runOffLoop(similarity('a')), runOffLoop(similarity('b')), runOffLoop(similarity('c'))]);
  for (let i = 0; i < 3; i++) {
    assert.equal(
      seen(await scan('then awk sum column three into totals json and stop', first)),
      1,
      'the held set is used',
    );
    assert.equal(seen(await scan('then sed rewrite the header row twice and stop', first)), 0);
  }
  assert.equal(
    seen(await scan('then sed rewrite the header row twice and stop', second)),
    1,
    'a set with another digest replaces it',
  );
  assert.equal(seen(await scan('then awk sum column three into totals json and stop', second)), 0);
  assert.equal(seen(await scan('then awk sum column three into totals json and stop', first)), 1);
});
