// The reveal round on hand-worked numbers (quicknet: genesis 1692803367 s, a round every 3 s;
// finney: a block every 12 s).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstRevealBlock, revealRoundFor } from './timelock-reveal-round.ts';

test('spec 424: the reveal epoch starts RevealPeriodEpochs - 1 tempos after the next epoch start', () => {
  const base = { currentBlock: 1000, netuid: 11, tempo: 360, nextEpochStartBlock: 1200 };
  assert.equal(firstRevealBlock({ ...base, revealPeriodEpochs: 1 }), 1200);
  assert.equal(firstRevealBlock({ ...base, revealPeriodEpochs: 3 }), 1200 + 2 * 360);
});

test('without get_next_epoch_start_block: the tempo formula, first block of epoch (current + period)', () => {
  // (1000 + 12) / 361 = epoch 2; epoch 3 starts at 3 * 361 - 12 = 1071, epoch 4 at 1432.
  assert.equal(firstRevealBlock({ currentBlock: 1000, netuid: 11, tempo: 360, revealPeriodEpochs: 1 }), 1071);
  assert.equal(firstRevealBlock({ currentBlock: 1000, netuid: 11, tempo: 360, revealPeriodEpochs: 2 }), 1432);
});

test('the round is the one out by the third block of the reveal epoch, rounded down', () => {
  // Block 1000 at 1 700 000 000 s; target block 1203 is 203 × 12 = 2436 s later, at 1 700 002 436 s;
  // (1 700 002 436 - 1 692 803 367) / 3 = 7 199 069 / 3 = 2 399 689.67 → 2 399 689.
  assert.equal(
    revealRoundFor({ currentBlock: 1000, currentBlockTimeMs: 1_700_000_000_000, revealFromBlock: 1200 }),
    2_399_689,
  );
  // One more second reaches the next whole round: 7 199 070 / 3 = 2 399 690.
  assert.equal(
    revealRoundFor({ currentBlock: 1000, currentBlockTimeMs: 1_700_000_001_000, revealFromBlock: 1200 }),
    2_399_690,
  );
});

test('one more reveal epoch of 360 blocks is 4320 s, 1440 rounds later', () => {
  const one = revealRoundFor({ currentBlock: 1000, currentBlockTimeMs: 1_700_000_000_000, revealFromBlock: 1200 });
  const two = revealRoundFor({ currentBlock: 1000, currentBlockTimeMs: 1_700_000_000_000, revealFromBlock: 1560 });
  assert.equal(two - one, 1440);
});

test('a reveal block already passed aims at now, never the past; the round is at least 1', () => {
  // (1 700 000 000 - 1 692 803 367) / 3 = 7 196 633 / 3 = 2 398 877.67 → 2 398 877.
  assert.equal(
    revealRoundFor({ currentBlock: 1000, currentBlockTimeMs: 1_700_000_000_000, revealFromBlock: 900 }),
    2_398_877,
  );
  assert.equal(revealRoundFor({ currentBlock: 0, currentBlockTimeMs: 0, revealFromBlock: 0 }), 1);
});
