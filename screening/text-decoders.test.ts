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

test('base85 (both alphabets) and zlib / gzip streams inside decode; a bomb stops at the inflate bound', async () => {
  const { deflateSync, gzipSync } = await import('node:zlib');
  const { base85Decoded, inflated, maxInflatedBytes } = await import('./text-decoders.ts');
  const secret = "sed -i 's/total_cents/amount_cents/' /app/ledger.py && python3 -m pytest -q";
  const b85 = (bytes: Buffer) => {
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';
    let out = '';
    for (let i = 0; i < bytes.length; i += 4) {
      const chunk = Buffer.alloc(4);
      bytes.copy(chunk, 0, i, Math.min(i + 4, bytes.length));
      let value = chunk.readUInt32BE(0);
      const digits: string[] = [];
      for (let k = 0; k < 5; k++) {
        digits.unshift(alphabet[value % 85]!);
        value = Math.floor(value / 85);
      }
      out += digits.join('').slice(0, Math.min(4, bytes.length - i) + 1);
    }
    return out;
  };
  assert.equal(base85Decoded(b85(Buffer.from(secret))), secret);
  assert.equal(base85Decoded(b85(deflateSync(Buffer.from(secret)))), secret);
  assert.equal(inflated(gzipSync(Buffer.from(secret)))?.toString(), secret);
  assert.equal(base85Decoded('the quick brown fox jumps over the lazy dog'), undefined);
  assert.equal(inflated(deflateSync(Buffer.alloc(maxInflatedBytes * 4))), undefined);
});

test('bytes under a repeating key of 2 to 16 bytes decode without the key; random bytes do not', async () => {
  const { hexDecoded, resetKeySearchBudget } = await import('./text-decoders.ts');
  const { randomBytes } = await import('node:crypto');
  const { readFileSync } = await import('node:fs');
  const path = await import('node:path');
  const { repoRoot } = await import('../common/data-layout.ts');
  // A real script of the size a pack would carry (about 2.6 KB).
  const text = readFileSync(path.join(repoRoot, 'scenarios', 'csv-sales-report', 'solution', 'solve.sh'), 'utf8');
  for (const key of ['k3', 'fusion', 'tr4jectory', 'n0t-the-probe-16']) {
    const bytes = Buffer.from([...Buffer.from(text)].map((byte, at) => byte ^ key.charCodeAt(at % key.length)));
    resetKeySearchBudget();
    assert.equal(hexDecoded(bytes.toString('hex')), text, key);
  }
  resetKeySearchBudget();
  assert.equal(hexDecoded(randomBytes(2000).toString('hex')), undefined);
});
