import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { repoRoot } from '../common/data-layout.ts';
import { readPackDirectory } from '../packs/read-pack.ts';
import { alphabetBytes, alphabetOf, customAlphabetDecodings } from './custom-alphabet.ts';
import { decodedStrings } from './decoded-strings.ts';
import { scanPack } from './static-scan.ts';
import { buildScenarioFingerprints } from './scenario-fingerprints.ts';
import { readCorpus } from './testing/corpus.ts';

/** A deterministic shuffle (a linear congruential generator), so the tables differ from every standard one. */
function shuffled(text: string, seed: number): string {
  const chars = [...text];
  let state = seed;
  for (let i = chars.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** `bytes` written as digits of `alphabet` (the encoder a policy author would write). */
function encode(bytes: Buffer, alphabet: string): string {
  if (alphabet.length === 85) {
    let out = '';
    for (let start = 0; start < bytes.length; start += 4) {
      const group = [...bytes.subarray(start, start + 4)];
      const padded = [...group, 0, 0, 0].slice(0, 4);
      let word = ((padded[0]! << 24) >>> 0) + (padded[1]! << 16) + (padded[2]! << 8) + padded[3]!;
      const digits: string[] = [];
      for (let i = 0; i < 5; i++) {
        digits.unshift(alphabet[word % 85]!);
        word = Math.floor(word / 85);
      }
      out += digits.slice(0, group.length + 1).join('');
    }
    return out;
  }
  const bits = Math.log2(alphabet.length);
  let out = '';
  let buffer = 0;
  let held = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    held += 8;
    while (held >= bits) {
      held -= bits;
      out += alphabet[(buffer >> held) & (alphabet.length - 1)];
    }
  }
  if (held > 0) out += alphabet[(buffer << (bits - held)) & (alphabet.length - 1)];
  return out;
}

const base64Table = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const base85Table = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';
const message = 'cat > /app/report.py <<EOF\nimport csv\nprint(sum(row["amount"] for row in rows))\nEOF\n';

test('a table is 16, 32, 64 (65 with padding) or 85 distinct printable characters', () => {
  assert.equal(alphabetOf(shuffled(base64Table, 1)), shuffled(base64Table, 1));
  assert.equal(alphabetOf(`${base64Table}=`), base64Table);
  assert.equal(alphabetOf('0123456789abcdef'), '0123456789abcdef');
  assert.equal(alphabetOf('aab'.repeat(6).slice(0, 16)), undefined, 'repeated characters');
  assert.equal(alphabetOf('the quick brown fox jumps over a lazy dog, sixty-four characters'), undefined);
  assert.equal(alphabetOf('abcdefghijklmnopq'), undefined, '17 is no base');
});

for (const [name, table] of [
  ['base16', shuffled('0123456789abcdef', 7)],
  ['base32', shuffled('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 7)],
  ['base64', shuffled(base64Table, 7)],
  ['base85', shuffled(base85Table, 7)],
] as const) {
  test(`${name} in a shuffled table decodes with the table the file holds`, () => {
    const blob = encode(Buffer.from(message), table);
    assert.equal(alphabetBytes(blob, table)!.toString('utf8'), message);
    const found = customAlphabetDecodings(['unrelated words', table, blob]);
    assert.deepEqual(
      found.map((item) => [item.text, item.blob]),
      [[message, 2]],
    );
  });
}

test('a compressed payload in a custom table inflates to its text', () => {
  const table = shuffled(base64Table, 11);
  const blob = encode(deflateSync(Buffer.from(message.repeat(4))), table);
  assert.equal(customAlphabetDecodings([table, blob])[0]?.text, message.repeat(4));
});

test('no table, or a table that decodes nothing to text, adds nothing', () => {
  const table = shuffled(base64Table, 5);
  const blob = encode(Buffer.from(message), table);
  assert.deepEqual(customAlphabetDecodings([blob]), [], 'no table in the file');
  assert.deepEqual(customAlphabetDecodings([shuffled(base64Table, 6), blob]), [], 'another table: nonsense bytes');
});

test('pieces of a payload joined from literals are decoded once, as the whole', () => {
  const table = shuffled(base64Table, 9);
  const blob = encode(Buffer.from(message.repeat(3)), table);
  const pieces = [blob.slice(0, 48), blob.slice(48, 96)];
  const found = customAlphabetDecodings([table, ...pieces, blob]);
  assert.equal(found.length, 1);
  assert.equal(found[0]!.blob, 3);
});

test('decodedStrings reports a custom-alphabet payload of a TypeScript and of a Python source', () => {
  const table = shuffled(base64Table, 13);
  const blob = encode(Buffer.from(message), table);
  const ts = `const DIGITS = '${table}';\nconst NOTE = '${blob.slice(0, 40)}' +\n  '${blob.slice(40)}';\n`;
  const py = `DIGITS = "${table}"\nNOTE = (\n    "${blob.slice(0, 40)}"\n    "${blob.slice(40)}"\n)\n`;
  for (const [code, language] of [
    [ts, 'javascript'],
    [py, 'python'],
  ] as const) {
    const found = decodedStrings(code, undefined, language).filter((item) => item.encoding === 'custom-alphabet');
    assert.deepEqual(
      found.map((item) => item.text),
      [message],
      language,
    );
  }
});

test('the corpus: both custom-alphabet coaching packs are rejected for what they decode to; no honest pack is', async () => {
  const fingerprints = await buildScenarioFingerprints();
  for (const name of ['custom-alphabet-format', 'python-custom-base32']) {
    const pack = await readPackDirectory(path.join(repoRoot, 'test', 'fixtures', 'packs', 'coaching', name));
    const result = scanPack({ pack }, fingerprints);
    assert.equal(result.verdict, 'reject', name);
    assert.ok(
      result.evidence.some((item) => item.encoding === 'custom-alphabet'),
      `${name}: evidence found only after decoding with the pack's table`,
    );
  }
  for (const entry of (await readCorpus()).filter((item) => item.group !== 'gaming')) {
    const result = scanPack({ pack: entry.pack }, fingerprints);
    assert.ok(
      !result.evidence.some((item) => item.encoding === 'custom-alphabet'),
      `${entry.name}: nothing decoded with a custom table matches a scenario`,
    );
    assert.equal(result.verdict, 'pass', entry.name);
  }
});
