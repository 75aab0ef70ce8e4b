import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SpendLedger } from './spend-ledger.ts';
import { ownerIsDead, settleOrphanedAttempts } from './settle-orphaned-attempts.ts';
import { readCallLogCost } from './call-log-cost.ts';

const callLine = (costUsd: number) =>
  JSON.stringify({ time: 't', callId: 'c', model: 'm', status: 'ok', costUsd, reservedUsd: 0.5, request: {} });

test('the call log cost sums complete lines and skips torn or corrupt ones', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-calls-'));
  const file = path.join(dir, 'model-calls.jsonl');
  await writeFile(file, `${callLine(0.01)}\nnot json\n${callLine(0.02)}\n{"costUsd":0.5,"mod`);
  const cost = await readCallLogCost(file);
  assert.ok(cost);
  assert.ok(Math.abs(cost.costUsd - 0.03) < 1e-12);
  assert.equal(cost.calls, 2);
  assert.equal(cost.corruptLines, 2);
  assert.equal(await readCallLogCost(path.join(dir, 'missing.jsonl')), undefined);
});

test('a call started and never ended counts at its reservation; refused calls cost nothing', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-calls-'));
  const file = path.join(dir, 'model-calls.jsonl');
  const rows = [
    { phase: 'start', callId: 'a', model: 'm', reservedUsd: 0.3, request: {} },
    { phase: 'start', callId: 'b', model: 'm', reservedUsd: 0.2, request: {} },
    { phase: 'refused', callId: 'c', model: 'm', status: 'refused', reservedUsd: 0, costUsd: 0 },
    { phase: 'end', callId: 'a', model: 'm', status: 'ok', reservedUsd: 0.3, costUsd: 0.01 },
  ];
  await writeFile(file, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  const cost = await readCallLogCost(file);
  assert.ok(cost);
  assert.ok(Math.abs(cost.costUsd - 0.21) < 1e-12, `${cost.costUsd}`);
  assert.equal(cost.calls, 3);
  assert.equal(cost.unfinishedCalls, 1);
  assert.equal(cost.corruptLines, 0);
});

test('attempts of a dead worker are settled from their call logs; others keep their reservation', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-orphans-'));
  const host = os.hostname();
  const dead = { host, pid: spawnSync('true').pid! };
  const callLogFile = path.join(dir, 'a', 'model-calls.jsonl');
  await mkdir(path.dirname(callLogFile), { recursive: true });
  await writeFile(callLogFile, `${callLine(0.004)}\n${callLine(0.006)}\n`);
  const ledger = await SpendLedger.open({
    dir: path.join(dir, 'spend'),
    ceilings: { submissionUsd: 30, dailyUsd: 500 },
  });
  const reserve = (attemptId: string, owner: { host: string; pid: number }, file?: string) =>
    ledger.reserve({ attemptId, submissionId: 's', scenario: 'x', amountUsd: 1, owner, callLogFile: file });
  await reserve('crashed', dead, callLogFile);
  await reserve('crashed-before-policy', dead, path.join(dir, 'b', 'model-calls.jsonl'));
  await reserve('running-here', { host, pid: process.pid }, callLogFile);
  await reserve('running-elsewhere', { host: 'another-host', pid: dead.pid }, callLogFile);
  assert.equal(ownerIsDead(dead), true);
  assert.equal(ownerIsDead({ host, pid: process.ppid }), false);

  const report = await settleOrphanedAttempts(ledger);
  assert.deepEqual(
    report.settled.map((s) => [s.attemptId, s.calls]),
    [['crashed', 2]],
  );
  assert.deepEqual(report.leftReserved, ['crashed-before-policy']);
  const settled = await ledger.attempt('crashed');
  assert.equal(settled?.state, 'settled');
  assert.equal(settled?.source, 'call-log');
  assert.ok(Math.abs(settled!.costUsd - 0.01) < 1e-12);
  const totals = await ledger.totals({ submissionId: 's' });
  assert.equal(totals.openAttempts, 3);
  assert.ok(Math.abs(totals.totalUsd - 3.01) < 1e-9);
  assert.deepEqual((await settleOrphanedAttempts(ledger)).settled, [], 'a second pass finds nothing new');
});
