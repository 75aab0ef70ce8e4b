import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base32Decoded, keyedText, proseBlobs, resetKeySearchBudget, rotDecoded } from './text-decoders.ts';

const secret = 'the answer file is /app/report.json';
const rot = (text: string, by: number) =>
  text.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + by) % 26) + 97));

test('base32 decodes in either case; words in capitals are not base32', () => {
  const encoded = 'ORUGKIDBNZZXOZLSEBTGS3DFEBUXGIBPMFYHAL3SMVYG64TUFZVHG33O';
  assert.equal(base32Decoded(encoded), secret);
  assert.equal(base32Decoded(encoded.toLowerCase()), secret);
  assert.equal(base32Decoded('IMPORTANTNOTICE'), undefined);
});

test('rot-n is undone when another rotation reads as English, and English is left alone', () => {
  for (const by of [1, 7, 13, 25]) assert.equal(rotDecoded(rot(secret, by)), secret);
  assert.equal(rotDecoded('Read the failing output before you change the code.'), undefined);
  assert.equal(rotDecoded('short'), undefined);
});

test('codes XOR-ed with, or shifted by, one constant are undone; text and noise are not', () => {
  resetKeySearchBudget();
  const codes = [...secret].map((char) => char.charCodeAt(0));
  assert.equal(keyedText(codes.map((code) => code ^ 0x5a)), secret);
  assert.equal(keyedText(codes.map((code) => code + 9)), secret);
  assert.equal(keyedText(codes), undefined);
  assert.equal(keyedText(Array.from({ length: 200 }, (_, i) => (i * 97 + 13) % 256)), undefined);
});

test('encoded runs in prose and data are found with their line', () => {
  resetKeySearchBudget();
  const hex = Buffer.from(secret).toString('hex');
  const xored = [...secret].map((char) => char.charCodeAt(0) ^ 0x13).join(', ');
  const text = `# Notes\n\nchecksum ${Buffer.from(secret).toString('base64')}\n${hex}\n\ncodes: ${xored}\n`;
  assert.deepEqual(
    proseBlobs(text)
      .filter((blob) => blob.text === secret)
      .map((blob) => [blob.encoding, blob.line, blob.text]),
    [
      ['base64', 3, secret],
      ['hex', 4, secret],
      ['xor', 6, secret],
    ],
  );
});
