// `trl submit`, `trl consensus` and `trl seat` as a miner and an operator run them: the real
// command line against a local chain file of its own; bad input gets a message, not a stack.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../common/data-layout.ts';
import { readChainConfig } from '../../chain/chain-config.ts';
import { openLocalChain } from '../../chain/open-chain.ts';
import { addressFromUri } from '../../chain/local/dev-keys.ts';

const run = promisify(execFile);
const weakPack = path.join(repoRoot, 'test', 'fixtures', 'packs', 'seat', 'weak');

describe('chain commands on the local chain', () => {
  const netuid = 1000 + Math.floor(Math.random() * 60_000);
  let env: NodeJS.ProcessEnv;

  const trl = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        ['--import', 'tsx', path.join(repoRoot, 'cli', 'main.ts'), ...args],
        { env, cwd: repoRoot },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  before(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'trl-chain-cli-'));
    env = {
      ...process.env,
      TRL_LOCAL_CHAIN_FILE: path.join(dir, 'chain.json'),
      TRL_NETUID: String(netuid),
      TRL_LOCAL_CHAIN_BLOCK_MS: '100',
    };
  });

  test('trl submit stores the pack and commits "<hash>|<url>" for the miner, registering it', async () => {
    const hash = (await trl('pack', weakPack)).stdout.trim();
    const submitted = await trl('submit', weakPack, '--hotkey', '//CliMiner', '--json');
    assert.equal(submitted.code, 0, submitted.stderr);
    const receipt = JSON.parse(submitted.stdout);
    assert.equal(receipt.pack, hash);
    assert.equal(receipt.hotkey, await addressFromUri('//CliMiner'));
    assert.equal(receipt.commitment, `${hash}|https://packs.trl.invalid/local`);
    const stored = await readFile(
      path.join(process.env.TRL_DATA_DIR ?? path.join(repoRoot, '.data'), 'packs', `${hash}.json`),
      'utf8',
    );
    assert.ok(stored.length > 0);
    const chain = await openLocalChain(readChainConfig(env));
    const read = await chain.commitments(netuid);
    assert.deepEqual(
      read.commitments.map((c) => [c.hotkey, c.packHash]),
      [[receipt.hotkey, hash]],
    );
  });

  test('trl consensus shows whom the chain would pay', async () => {
    const chain = await openLocalChain(readChainConfig(env));
    const empty = JSON.parse((await trl('consensus', '--json')).stdout);
    assert.deepEqual(empty.payees, []);

    // Two more validators: 60% of the stake backs one miner, 40% another; the majority's miner is paid.
    const miner = (await chain.metagraph(netuid)).neurons.find((n) => !n.validatorPermit)!;
    const other = await chain.register(netuid, { hotkey: await addressFromUri('//CliOtherMiner') });
    const validators = [
      ['//CliValidatorA', 1500, miner.uid],
      ['//CliValidatorB', 1000, other],
    ] as const;
    // The default validator (1000 τ) backs the first miner too: 2500 of 3500 τ on it.
    await chain.setWeights(netuid, [miner.uid], [65535]);
    for (const [uri, stakeTao, uid] of validators) {
      const hotkey = await addressFromUri(uri);
      await chain.register(netuid, { hotkey, stakeTao, validatorPermit: true });
      await chain.as(hotkey).setWeights(netuid, [uid], [65535]);
    }
    const preview = JSON.parse((await trl('consensus', '--json')).stdout);
    assert.deepEqual(preview.payees, [{ uid: miner.uid, incentive: 1 }]);
    const table = (await trl('consensus')).stdout;
    assert.match(table, /miner\s+hotkey\s+incentive/);
    assert.match(table, /100\.0%/);
  });

  test('trl seat says clearly when there is no seat yet', async () => {
    const seat = await trl('seat');
    assert.equal(seat.code, 1);
    assert.match(seat.stderr, new RegExp(`no seat yet on subnet ${netuid}`));
  });

  test('bad input gets a message and exit 64, never a stack trace', async () => {
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [['submit', '/nonexistent/pack'], env, /pack/i],
      [['submit', weakPack, '--hotkey', 'my secret mnemonic words'], env, /--hotkey takes a dev URI/],
      [['submit', weakPack, '--url', 'http://example.com/p.json'], env, /--url: .*https/],
      [['consensus'], { ...env, TRL_CHAIN: 'finney' }, /TRL_CHAIN: /],
      [['submit', weakPack], { ...env, TRL_CHAIN: 'subtensor', TRL_CHAIN_ENDPOINT: 'ws://127.0.0.1:9' }, /--url https/],
    ];
    const original = env;
    for (const [args, caseEnv, message] of cases) {
      env = caseEnv;
      const result = await trl(...args);
      assert.equal(result.code, 64, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
      assert.doesNotMatch(result.stderr, /\n\s+at /, `${args.join(' ')} printed a stack trace`);
    }
    env = original;
  });
});
