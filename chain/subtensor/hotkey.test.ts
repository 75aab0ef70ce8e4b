import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HotkeyError, loadHotkey, requireHotkey } from './hotkey.ts';

// Public test vectors: the well-known dev phrase and //Alice (never real funds).
const devPhrase = 'bottom drive obey lake curtain smoke basket hold race lonely fit walk';
const alice = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const aliceSeed = '0xe5be9a5092b81bca64be81d212e7f2f9eba183bb7a90954f7b76361f6edb5c0a';
const devPhraseAddress = '5DfhGyQdFobKM8NsWvEeAKk5EQQgYe9AydgJ7rMB6E1EqRzV';

async function withDirectory(run: (directory: string) => Promise<void>): Promise<void> {
  const directory = await mkdtemp(path.join(tmpdir(), 'hotkey-'));
  try {
    await run(directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

test('no variable set means no key; requireHotkey says which variables to set', async () => {
  assert.equal(await loadHotkey({}), undefined);
  await assert.rejects(requireHotkey({}), /TRL_CHAIN_HOTKEY_URI.*TRL_CHAIN_HOTKEY_FILE/);
});

test('TRL_CHAIN_HOTKEY_URI takes a secret URI or a mnemonic: sr25519, ss58 prefix 42', async () => {
  const pair = await loadHotkey({ TRL_CHAIN_HOTKEY_URI: '//Alice' });
  assert.equal(pair?.address, alice);
  assert.equal(pair?.type, 'sr25519');
  assert.equal((await loadHotkey({ TRL_CHAIN_HOTKEY_URI: devPhrase }))?.address, devPhraseAddress);
});

test('setting both variables is refused', async () => {
  await assert.rejects(loadHotkey({ TRL_CHAIN_HOTKEY_URI: '//Alice', TRL_CHAIN_HOTKEY_FILE: '/nowhere' }), /only one/);
});

test('a bittensor wallet hotkey file: secretPhrase, or secretSeed, checked against its ss58Address', () =>
  withDirectory(async (directory) => {
    const phraseFile = path.join(directory, 'phrase');
    await writeFile(
      phraseFile,
      JSON.stringify({ secretPhrase: devPhrase, ss58Address: devPhraseAddress, accountId: '0x00' }),
    );
    assert.equal((await loadHotkey({ TRL_CHAIN_HOTKEY_FILE: phraseFile }))?.address, devPhraseAddress);

    const seedFile = path.join(directory, 'seed');
    await writeFile(seedFile, JSON.stringify({ secretSeed: aliceSeed, ss58Address: alice }));
    assert.equal((await loadHotkey({ TRL_CHAIN_HOTKEY_FILE: seedFile }))?.address, alice);

    const mismatch = path.join(directory, 'mismatch');
    await writeFile(mismatch, JSON.stringify({ secretSeed: aliceSeed, ss58Address: devPhraseAddress }));
    await assert.rejects(loadHotkey({ TRL_CHAIN_HOTKEY_FILE: mismatch }), /ss58Address .* derives/);
  }));

test('a plain text file holds a URI or mnemonic', () =>
  withDirectory(async (directory) => {
    const file = path.join(directory, 'hotkey.txt');
    await writeFile(file, `${devPhrase}\n`);
    assert.equal((await loadHotkey({ TRL_CHAIN_HOTKEY_FILE: file }))?.address, devPhraseAddress);
  }));

test('errors name the file and never contain the secret', () =>
  withDirectory(async (directory) => {
    const secret = 'zebra quantum violet ocean seventeen marble wrong words that are not a mnemonic';
    const badText = path.join(directory, 'bad.txt');
    await writeFile(badText, secret);
    const badJson = path.join(directory, 'bad.json');
    await writeFile(badJson, JSON.stringify({ secretSeed: '0x1234', secretPhrase: 42, note: secret }));
    const badUri = { TRL_CHAIN_HOTKEY_URI: secret };
    for (const env of [{ TRL_CHAIN_HOTKEY_FILE: badText }, { TRL_CHAIN_HOTKEY_FILE: badJson }, badUri]) {
      const error = await loadHotkey(env).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof HotkeyError, `refused: ${JSON.stringify(Object.keys(env))}`);
      assert.ok(!error.message.includes(secret), 'message has no secret');
      assert.ok(!error.message.includes('zebra'), 'message has no word of the secret');
      assert.equal(error.cause, undefined, 'no library error carried along');
      if (env !== badUri) assert.ok(error.message.includes(directory), 'message names the file');
      else assert.match(error.message, /TRL_CHAIN_HOTKEY_URI/);
    }
  }));

test('an unreadable or encrypted file says what to do', () =>
  withDirectory(async (directory) => {
    await assert.rejects(
      loadHotkey({ TRL_CHAIN_HOTKEY_FILE: path.join(directory, 'missing') }),
      /cannot read .*ENOENT.*check the path/,
    );
    const encrypted = path.join(directory, 'encrypted');
    await writeFile(encrypted, '$NACL\u0000\u0001garbage');
    await assert.rejects(loadHotkey({ TRL_CHAIN_HOTKEY_FILE: encrypted }), /encrypted; use an unencrypted hotkey file/);
  }));
