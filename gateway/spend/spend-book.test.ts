import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SpendBook, describeRefusal } from './spend-book.ts';
import type { SpendEvent } from './spend-events.ts';
import { parseSpendLines } from './spend-events.ts';

const owner = { host: 'h', pid: 1 };
const reserve = (attemptId: string, submissionId = 's1', day = '2026-03-01', amountUsd = 1): SpendEvent => ({
  kind: 'reserve',
  time: `${day}T00:00:00.000Z`,
  attemptId,
  submissionId,
  scenario: 'x',
  day,
  amountUsd,
  owner,
});
const settle = (attemptId: string, costUsd: number, submissionId = 's1', day = '2026-03-01'): SpendEvent => ({
  kind: 'settle',
  time: `${day}T00:00:01.000Z`,
  attemptId,
  submissionId,
  scenario: 'x',
  day,
  costUsd,
  source: 'gateway',
});
const release = (attemptId: string, submissionId = 's1', day = '2026-03-01'): SpendEvent => ({
  kind: 'release',
  time: `${day}T00:00:01.000Z`,
  attemptId,
  submissionId,
  scenario: 'x',
  day,
  reason: 'never started',
});

test('totals are settled costs plus open reservations; released attempts count nothing', () => {
  const book = new SpendBook();
  for (const event of [reserve('a'), reserve('b'), reserve('c'), settle('a', 0.25), release('b')]) book.apply(event);
  assert.deepEqual(book.totals({ submissionId: 's1' }), {
    settledUsd: 0.25,
    reservedUsd: 1,
    totalUsd: 1.25,
    attempts: 3,
    openAttempts: 1,
  });
  assert.deepEqual(book.totals({ day: '2026-03-01' }).totalUsd, 1.25);
  assert.equal(book.totals({ submissionId: 'other' }).attempts, 0);
});

test('folding is idempotent: repeated lines and a second close change nothing', () => {
  const book = new SpendBook();
  assert.equal(book.apply(reserve('a')), true);
  assert.equal(book.apply(reserve('a')), false);
  assert.equal(book.apply(settle('a', 0.1)), true);
  assert.equal(book.apply(settle('a', 0.9)), false);
  assert.equal(book.apply(release('a')), false);
  assert.equal(book.totals({ submissionId: 's1' }).settledUsd, 0.1);
});

test('a settle whose reserve line was lost still counts its cost', () => {
  const book = new SpendBook();
  book.apply(settle('lost', 0.4));
  assert.deepEqual(book.totals({ submissionId: 's1' }), {
    settledUsd: 0.4,
    reservedUsd: 0,
    totalUsd: 0.4,
    attempts: 1,
    openAttempts: 0,
  });
});

test('a reservation that would pass either ceiling is refused with the figures', () => {
  const book = new SpendBook();
  book.apply(reserve('a'));
  book.apply(settle('a', 0.5));
  book.apply(reserve('b', 's2'));
  const ceilings = { submissionUsd: 2, dailyUsd: 100 };
  assert.equal(book.refusal({ submissionId: 's1', day: '2026-03-01', amountUsd: 1 }, ceilings), undefined);
  assert.equal(
    book.refusal({ submissionId: 's1', day: '2026-03-01', amountUsd: 1.5 }, ceilings),
    undefined,
    'exactly at the ceiling is allowed',
  );
  const refusal = book.refusal({ submissionId: 's1', day: '2026-03-01', amountUsd: 1.6 }, ceilings);
  assert.deepEqual(refusal, {
    ceiling: 'submission',
    scope: 's1',
    ceilingUsd: 2,
    spentUsd: 0.5,
    reservedUsd: 0,
    capUsd: 1.6,
  });
  const daily = book.refusal(
    { submissionId: 's3', day: '2026-03-01', amountUsd: 1 },
    { submissionUsd: 30, dailyUsd: 2 },
  );
  assert.equal(daily?.ceiling, 'daily');
  assert.equal(daily?.spentUsd, 0.5);
  assert.equal(daily?.reservedUsd, 1);
  assert.match(
    describeRefusal(daily!),
    /daily spend ceiling of \$2\.0000 \(UTC day 2026-03-01\) reached: \$0\.5000 spent \+ \$1\.0000 reserved .* \+ \$1\.0000 for this attempt/,
  );
});

test('lines that are not events are counted, never thrown', () => {
  const text =
    [
      JSON.stringify(reserve('a')),
      '{"kind":"reserve"',
      'not json',
      JSON.stringify({ ...reserve('b'), amountUsd: -1 }),
      '',
      JSON.stringify(settle('a', 0.2)),
    ].join('\n') + '\n';
  const parsed = parseSpendLines(text);
  assert.equal(parsed.events.length, 2);
  assert.equal(parsed.corruptLines, 3);
});
