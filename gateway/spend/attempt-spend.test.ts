import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { SpendLedger, spendFileName } from './spend-ledger.ts';
import { attemptIdOf, gatewaySpendUsd, reserveAttemptSpend, spendCeilingReachedType } from './attempt-spend.ts';
import { BudgetLedger } from '../budget-ledger.ts';
import { EpisodeMeter } from '../meter/episode-meter.ts';

const owner = { host: os.hostname(), pid: process.pid };
const attempt = (n: number) => ({ workflowId: 'evaluate-s1', runId: 'r', activityId: '7', attempt: n });

test('an attempt reserves the cap and is settled once; a retry reserves again and both count', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-attempt-'));
  const clock = () => new Date('2026-03-01T10:00:00Z');
  const ledger = await SpendLedger.open({ dir, ceilings: { submissionUsd: 30, dailyUsd: 500 }, clock });
  const first = await reserveAttemptSpend(ledger, {
    attempt: attempt(1),
    submissionId: 's1',
    scenario: 'csv',
    capUsd: 1,
    owner,
  });
  assert.equal(first.attemptId, 'evaluate-s1/r/7/1');
  await first.settle(0.25);
  await first.settle(0.5); // the first close wins
  const second = await reserveAttemptSpend(ledger, {
    attempt: attempt(2),
    submissionId: 's1',
    scenario: 'csv',
    capUsd: 1,
    owner,
  });
  await second.settle(0.125);
  assert.deepEqual(await ledger.totals({ submissionId: 's1' }), {
    settledUsd: 0.375,
    reservedUsd: 0,
    totalUsd: 0.375,
    attempts: 2,
    openAttempts: 0,
  });
  const lines = (await readFile(path.join(dir, spendFileName('2026-03-01')), 'utf8')).trim().split('\n');
  assert.equal(lines.length, 4);
});

test('a reservation past a ceiling is a non-retryable spend_ceiling_reached failure with the figures', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-attempt-'));
  const ledger = await SpendLedger.open({ dir, ceilings: { submissionUsd: 1, dailyUsd: 500 } });
  const first = await reserveAttemptSpend(ledger, {
    attempt: attempt(1),
    submissionId: 's1',
    scenario: 'csv',
    capUsd: 1,
    owner,
  });
  await first.settle(0.2);
  const refused = await reserveAttemptSpend(ledger, {
    attempt: attempt(2),
    submissionId: 's1',
    scenario: 'csv',
    capUsd: 1,
    owner,
  }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(refused instanceof ApplicationFailure);
  assert.equal(refused.type, spendCeilingReachedType);
  assert.equal(refused.nonRetryable, true);
  assert.match(
    refused.message,
    /per-submission spend ceiling of \$1\.0000 \(submission s1\) reached: \$0\.2000 spent \+ \$0\.0000 reserved by open attempts \+ \$1\.0000 for this attempt/,
  );
  assert.equal((await ledger.totals({ submissionId: 's1' })).attempts, 1, 'a refused attempt writes nothing');
  assert.equal(attemptIdOf(attempt(3)), 'evaluate-s1/r/7/3');
});

test("an attempt's gateway spend counts calls still in flight at their reservation", () => {
  const meter = new EpisodeMeter(1);
  const prices = { promptUsdPerMillionTokens: 0, completionUsdPerMillionTokens: 1000, cacheReadUsdPerMillionTokens: 0 };
  const done = meter.reserve({ prices, promptBoundTokens: 0, maxTokens: 300 });
  assert.ok(done.ok);
  meter.settle(done.reservationId, { prompt_tokens: 0, completion_tokens: 100 }, { failedAfterSend: false });
  assert.ok(meter.reserve({ prices, promptBoundTokens: 0, maxTokens: 200 }).ok);
  assert.ok(Math.abs(gatewaySpendUsd(new BudgetLedger(meter)) - 0.3) < 1e-12);
});
