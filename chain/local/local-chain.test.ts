import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalChain } from './local-chain.ts';
import { ChainError } from '../chain-error.ts';
import { addressFromUri } from './dev-keys.ts';

async function freshChain() {
  let now = 1_000_000;
  const dir = await mkdtemp(path.join(tmpdir(), 'trl-local-chain-'));
  const chain = new LocalChain({
    file: path.join(dir, 'chain.json'),
    signer: 'validator',
    blockMs: 1000,
    now: () => now,
  });
  await chain.ensureSubnet(11, { weightsRateLimit: 5 });
  await chain.register(11, { hotkey: 'validator', stakeTao: 1000, validatorPermit: true });
  return { chain, advance: (blocks: number) => (now += blocks * 1000), dir };
}

test('blocks advance with time', async () => {
  const { chain, advance } = await freshChain();
  assert.equal(await chain.currentBlock(), 0);
  advance(7);
  assert.equal(await chain.currentBlock(), 7);
});

test('commitments are stored per hotkey with their block; malformed ones are skipped with a reason', async () => {
  const { chain, advance } = await freshChain();
  await chain.register(11, { hotkey: 'miner-a' });
  await chain.register(11, { hotkey: 'miner-b' });
  advance(3);
  await chain.as('miner-a').setCommitment(11, `${'a'.repeat(64)}|https://example.com/a`);
  await chain.as('miner-b').setCommitment(11, 'not a commitment');
  const read = await chain.commitments(11);
  assert.deepEqual(read.commitments, [
    { hotkey: 'miner-a', packHash: 'a'.repeat(64), url: 'https://example.com/a', block: 3 },
  ]);
  assert.equal(read.skipped.length, 1);
  assert.equal(read.skipped[0]!.hotkey, 'miner-b');
  await assert.rejects(
    chain.as('stranger').setCommitment(11, 'x'),
    (e: ChainError) => e.code === 'Commitments.AccountNotAllowedCommit',
  );
  await assert.rejects(
    chain.as('miner-a').setCommitment(11, 'x'.repeat(129)),
    (e: ChainError) => e.code === 'commitment_too_long',
  );
});

test('weights are set winner-take-all, then rate limited until the limit passes', async () => {
  const { chain, advance } = await freshChain();
  const miner = await chain.register(11, { hotkey: 'miner-a' });
  advance(2);
  const first = await chain.setWeights(11, [miner], [65535]);
  assert.equal(first.mode, 'direct');
  assert.equal(first.block, 2);
  assert.deepEqual(await chain.weights(11), [
    { validatorUid: 0, validatorHotkey: 'validator', weights: [{ uid: miner, value: 65535 }] },
  ]);
  assert.equal((await chain.metagraph(11)).neurons[0]!.lastUpdate, 2);
  await assert.rejects(
    chain.setWeights(11, [miner], [65535]),
    (e: ChainError) => e.code === 'rate_limited' && e.retryAtBlock === 7,
  );
  advance(5);
  assert.equal((await chain.setWeights(11, [miner], [65535])).block, 7);
  await assert.rejects(
    chain.as('miner-a').setWeights(11, [0], [1]),
    (e: ChainError) => e.code === 'no_validator_permit',
  );
});

test('the state survives a new client on the same file, and a corrupt file is a clear error', async () => {
  const { chain, dir } = await freshChain();
  const again = new LocalChain({ file: chain.file });
  assert.equal((await again.metagraph(11)).neurons.length, 1);
  assert.ok(JSON.parse(await readFile(chain.file, 'utf8')).subnets['11']);
  await writeFile(path.join(dir, 'chain.json'), '{"version": 2}');
  await assert.rejects(again.metagraph(11), /not a valid state file.*move it aside/);
});

test('concurrent writers do not lose each other’s changes', async () => {
  const { chain } = await freshChain();
  await Promise.all(Array.from({ length: 20 }, (_, i) => chain.register(11, { hotkey: `miner-${i}` })));
  const uids = (await chain.metagraph(11)).neurons.map((n) => n.uid).sort((a, b) => a - b);
  assert.deepEqual(
    uids,
    Array.from({ length: 21 }, (_, i) => i),
  );
});

test('commit-reveal v2: a commit hides the weights until its reveal epoch, then the reveal sets them', async () => {
  let now = 0;
  const dir = await mkdtemp(path.join(tmpdir(), 'trl-local-cr-'));
  const validator = await addressFromUri('//LocalCrValidator');
  const chain = new LocalChain({
    file: path.join(dir, 'chain.json'),
    signer: validator,
    blockMs: 1000,
    now: () => now,
  });
  // netuid 11, tempo 9: epoch = floor((block + 12) / 10), so epoch 2 starts at block 8, epoch 3 at 18.
  await chain.ensureSubnet(11, { tempo: 9, weightsRateLimit: 0, commitRevealEnabled: true, revealPeriodEpochs: 1 });
  await chain.register(11, { hotkey: validator, stakeTao: 1000, validatorPermit: true });
  const miner = await chain.register(11, { hotkey: await addressFromUri('//LocalCrMiner') });
  now = 9_000;
  const commit = await chain.setWeights(11, [miner], [65535]);
  assert.equal(commit.mode, 'commit');
  assert.equal(commit.revealFromBlock, 18);
  assert.deepEqual(await chain.weights(11), [], 'nothing is visible before the reveal');
  assert.deepEqual(await chain.revealDueWeights(11), [], 'too early');
  now = 18_000;
  const revealed = await chain.revealDueWeights(11);
  assert.deepEqual(
    revealed.map((r) => [r.mode, r.block, r.uids]),
    [['reveal', 18, [miner]]],
  );
  assert.deepEqual((await chain.weights(11))[0]!.weights, [{ uid: miner, value: 65535 }]);
  assert.deepEqual(await chain.revealDueWeights(11), [], 'revealed once');

  // A commit left past its reveal epoch expires and never counts.
  now = 19_000;
  await chain.setWeights(11, [miner], [1]);
  now = 40_000;
  assert.deepEqual(await chain.revealDueWeights(11), []);
  assert.deepEqual((await chain.weights(11))[0]!.weights, [{ uid: miner, value: 65535 }]);
});
