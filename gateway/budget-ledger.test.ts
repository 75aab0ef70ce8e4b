import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BudgetLedger } from './budget-ledger.ts';

test('reservations hold money until settled at the real cost', () => {
  const ledger = new BudgetLedger(1);
  const a = ledger.reserve(0.6)!;
  assert.ok(a);
  assert.equal(ledger.reserve(0.5), undefined, 'a second reservation past the cap must be refused');
  const settlement = ledger.settle(a, 0.2);
  assert.deepEqual(settlement, { chargedUsd: 0.2, overrunUsd: 0 });
  assert.ok(Math.abs(ledger.remainingUsd - 0.8) < 1e-12);
  assert.ok(ledger.reserve(0.5));
});

test('a reservation settles once; overruns are reported', () => {
  const ledger = new BudgetLedger(1);
  const r = ledger.reserve(0.1)!;
  assert.equal(ledger.settle(r, 0.15).overrunUsd.toFixed(2), '0.05');
  assert.throws(() => ledger.settle(r, 0.1), /not open/);
});

test('invalid amounts are refused', () => {
  const ledger = new BudgetLedger(1);
  assert.equal(ledger.reserve(Number.NaN), undefined);
  assert.equal(ledger.reserve(-1), undefined);
  assert.throws(() => new BudgetLedger(-1));
});
