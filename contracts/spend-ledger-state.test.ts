import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  closeSpend,
  compactSpendLedger,
  emptySpendLedgerState,
  ledgerTotals,
  reserveSpend,
  reserveSpendRequestSchema,
  spendLedgerLimits,
  utcDayOf,
  type ReserveSpendRequest,
  type SpendLedgerState,
} from './spend-ledger-state.ts';

const ceilings = { submissionUsd: 3, dailyUsd: 5 };
const request = (attemptId: string, submissionId = 's1', amountUsd = 1): ReserveSpendRequest => ({
  attemptId,
  submissionId,
  scenario: 'x',
  amountUsd,
  owner: { host: 'h', pid: 1 },
  ceilings,
});
const day = '2026-12-02';

test('reservations fit under the submission ceiling, then are refused with the numbers', () => {
  const state = emptySpendLedgerState();
  assert.deepEqual(
    ['a', 'b', 'c'].map((id) => reserveSpend(state, request(id), day).ok),
    [true, true, true],
  );
  const refused = reserveSpend(state, request('d'), day);
  assert.ok(!refused.ok && 'refusal' in refused);
  assert.deepEqual(refused.refusal, {
    ceiling: 'submission',
    scope: 's1',
    ceilingUsd: 3,
    spentUsd: 0,
    reservedUsd: 3,
    capUsd: 1,
  });
  // Settling frees what the attempt did not spend.
  assert.equal(closeSpend(state, { kind: 'settle', attemptId: 'a', costUsd: 0.25, source: 'gateway' }), 'closed');
  assert.equal(reserveSpend(state, request('d'), day).ok, false, '0.25 + 2 open + 1 > 3');
  assert.equal(closeSpend(state, { kind: 'release', attemptId: 'b', reason: 'never started' }), 'closed');
  assert.equal(reserveSpend(state, request('d'), day).ok, true);
  assert.deepEqual(ledgerTotals(state, { submissionId: 's1' }), {
    settledUsd: 0.25,
    reservedUsd: 2,
    totalUsd: 2.25,
    attempts: 4,
    openAttempts: 2,
  });
});

test('the daily ceiling counts every submission of the day', () => {
  const state = emptySpendLedgerState();
  for (const [index, submission] of ['s1', 's2', 's3'].entries()) {
    assert.equal(reserveSpend(state, request(`${submission}-a`, submission, 2), day).ok, index < 2, submission);
  }
  const refused = reserveSpend(state, request('s3-b', 's3', 2), day);
  assert.ok(
    !refused.ok && 'refusal' in refused && refused.refusal.ceiling === 'daily' && refused.refusal.scope === day,
  );
  assert.equal(reserveSpend(state, request('s3-c', 's3', 1), '2026-12-03').ok, true, 'a new day has room');
});

test('reserving is idempotent for an open attempt; a closed one cannot be reserved again; a repeated close changes nothing', () => {
  const state = emptySpendLedgerState();
  assert.deepEqual(reserveSpend(state, request('a'), day), { ok: true, day });
  assert.deepEqual(reserveSpend(state, request('a'), '2026-12-03'), { ok: true, day }, 'the first reservation stands');
  assert.equal(state.open.length, 1);
  assert.equal(closeSpend(state, { kind: 'settle', attemptId: 'a', costUsd: 0.5, source: 'gateway' }), 'closed');
  assert.equal(closeSpend(state, { kind: 'settle', attemptId: 'a', costUsd: 0.9, source: 'gateway' }), 'repeat');
  assert.deepEqual(reserveSpend(state, request('a'), day), { ok: false, closedAlready: true });
  assert.equal(closeSpend(state, { kind: 'release', attemptId: 'never', reason: '' }), 'unknown');
  assert.equal(ledgerTotals(state, { day }).settledUsd, 0.5);
});

test("compaction closes a lost host's attempt at its full reservation once its day leaves the window, and drops old days", () => {
  const state = emptySpendLedgerState();
  reserveSpend(state, request('lost', 's-old'), '2026-11-20');
  reserveSpend(state, request('live', 's-new'), day);
  closeSpend(state, { kind: 'settle', attemptId: 'live', costUsd: 0.1, source: 'gateway' });
  const { expired } = compactSpendLedger(state, day);
  assert.deepEqual(expired, ['lost']);
  assert.equal(state.open.length, 0);
  assert.deepEqual(
    state.days.map((entry) => entry.day),
    [day],
  );
  assert.deepEqual(
    state.submissions.map((entry) => entry.submissionId),
    ['s-new'],
    'a submission last seen before the window is forgotten',
  );
  // The window is daysKept days ending today.
  reserveSpend(
    state,
    request('edge', 's-edge'),
    utcDayOf(Date.parse(`${day}T00:00:00Z`) - (spendLedgerLimits.daysKept - 1) * 86_400_000),
  );
  assert.deepEqual(compactSpendLedger(state, day).expired, []);
});

test('the state stays bounded whatever the traffic: many submissions and attempts', () => {
  const state: SpendLedgerState = emptySpendLedgerState();
  for (let index = 0; index < 3_000; index += 1) {
    const attemptId = `${'w'.repeat(100)}/${index}`;
    reserveSpend(
      state,
      {
        ...request(attemptId, `submission-${index}-${'x'.repeat(100)}`, 0.01),
        ceilings: { submissionUsd: 1, dailyUsd: 1e6 },
      },
      day,
    );
    closeSpend(state, { kind: 'settle', attemptId, costUsd: 0.01, source: 'gateway' });
    compactSpendLedger(state, day);
  }
  assert.equal(state.closed.length, spendLedgerLimits.closedKept);
  assert.equal(state.submissions.length, spendLedgerLimits.submissionsKept);
  assert.ok(Math.abs(ledgerTotals(state, { day }).settledUsd - 30) < 1e-6, 'the day keeps every cent');
  const bytes = Buffer.byteLength(JSON.stringify(state));
  assert.ok(bytes < 200_000, `${bytes} bytes carried by continue-as-new`);
});

test('a malformed reservation names the field', () => {
  const parsed = reserveSpendRequestSchema.safeParse({ ...request('a'), amountUsd: -1 });
  assert.equal(parsed.success, false);
  assert.deepEqual(
    parsed.error?.issues.map((issue) => issue.path.join('.')),
    ['amountUsd'],
  );
});
