import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodedStrings, type Encoding } from './decoded-strings.ts';

const target = '/app/report.json';
const b64 = Buffer.from(target).toString('base64');
const hex = Buffer.from(target).toString('hex');
const codes = [...target].map((char) => char.charCodeAt(0)).join(', ');

/** The encodings under which `wanted` shows up in `code`. */
function encodingsOf(code: string, wanted = target): Encoding[] {
  return [...new Set(decodedStrings(code).filter((found) => found.text.includes(wanted)).map((found) => found.encoding))].sort();
}

test('plain literals of every quoting style, escapes resolved', () => {
  assert.deepEqual(encodingsOf(`a('${target}'); b("${target}"); c(\`${target}\`)`), ['plain']);
  assert.deepEqual(encodingsOf(`a('\\x2fapp\\x2freport.json')`), ['hex']);
});

test('base64 and hex payloads are decoded', () => {
  assert.deepEqual(encodingsOf(`atob('${b64}')`), ['base64']);
  assert.deepEqual(encodingsOf(`fromHex('${hex}')`), ['hex']);
  assert.deepEqual(encodingsOf(`fromHex('${hex.match(/../g)!.map((pair) => `0x${pair}`).join(', ')}')`), ['hex']);
});

test('concatenations, joins, templates and concat() of literals are joined', () => {
  assert.deepEqual(encodingsOf(`x = '/app/' + 'rep' + "ort.json";`), ['joined']);
  assert.deepEqual(encodingsOf(`x = ['/app', 'report.json'].join('/');`), ['joined']);
  assert.deepEqual(encodingsOf('x = `/app/${"rep"}ort.${`json`}`;'), ['joined']);
  assert.deepEqual(encodingsOf(`x = '/app/'.concat('report', '.json');`), ['joined']);
  // Constants declared earlier are followed.
  assert.deepEqual(encodingsOf(`const dir = '/ap' + 'p/'; const file = 'report.json'; use(dir + file);`), ['joined']);
  // A list of pieces without a visible join is joined both ways, words or fragments.
  assert.deepEqual(encodingsOf(`const parts = ['/app/re', 'port.js', 'on']; later(parts);`), ['joined']);
  assert.ok(decodedStrings(`const words = ['messy', 'csv', 'export'];`).some((found) => found.text === 'messy csv export'));
});

test('character codes and reversed strings are decoded', () => {
  assert.deepEqual(encodingsOf(`String.fromCharCode(${codes})`), ['char-codes']);
  assert.deepEqual(encodingsOf(`String.fromCharCode(...[${codes}])`), ['char-codes']);
  assert.deepEqual(encodingsOf(`const table = [${codes}]; decode(table);`), ['char-codes']);
  const reversed = [...target].reverse().join('');
  assert.deepEqual(encodingsOf(`'${reversed}'.split('').reverse().join('')`), ['reversed']);
  assert.deepEqual(encodingsOf(`flip('${reversed}')`), ['reversed']);
});

test('values that cannot be seen statically are left alone, and nothing throws', () => {
  assert.deepEqual(encodingsOf(`x = '/app/' + dir + 'report.json';`), []);
  for (const code of ["'a' +", '[1, 2', 'String.fromCharCode(', '`${', "''.split('').reverse(", 'const = ;']) {
    assert.doesNotThrow(() => decodedStrings(code), code);
  }
});

test('each string keeps the line where its expression starts', () => {
  const found = decodedStrings(`\n\nconst a = 'x';\nconst b = 'pa' +\n  'rt';`);
  assert.equal(found.find((entry) => entry.text === 'x')?.line, 3);
  assert.equal(found.find((entry) => entry.text === 'part')?.line, 4);
});
