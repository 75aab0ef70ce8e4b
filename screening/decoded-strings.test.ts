import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodedStrings, type Encoding } from './decoded-strings.ts';

const target = '/app/report.json';
const b64 = Buffer.from(target).toString('base64');
const hex = Buffer.from(target).toString('hex');
const codes = [...target].map((char) => char.charCodeAt(0)).join(', ');

/** The encodings under which `wanted` shows up in `code`. */
function encodingsOf(code: string, wanted = target): Encoding[] {
  return [
    ...new Set(
      decodedStrings(code)
        .filter((found) => found.text.includes(wanted))
        .map((found) => found.encoding),
    ),
  ].sort();
}

test('plain literals of every quoting style, escapes resolved', () => {
  assert.deepEqual(encodingsOf(`a('${target}'); b("${target}"); c(\`${target}\`)`), ['plain']);
  assert.deepEqual(encodingsOf(`a('\\x2fapp\\x2freport.json')`), ['hex']);
});

test('base64 and hex payloads are decoded', () => {
  assert.deepEqual(encodingsOf(`atob('${b64}')`), ['base64']);
  assert.deepEqual(encodingsOf(`fromHex('${hex}')`), ['hex']);
  assert.deepEqual(
    encodingsOf(
      `fromHex('${hex
        .match(/../g)!
        .map((pair) => `0x${pair}`)
        .join(', ')}')`,
    ),
    ['hex'],
  );
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
  assert.ok(
    decodedStrings(`const words = ['messy', 'csv', 'export'];`).some((found) => found.text === 'messy csv export'),
  );
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

// Issue 16: the encodings the decoder did not reverse.
const rot = (text: string, by: number) =>
  text.replace(/[a-z]/gi, (c) =>
    String.fromCharCode(((c.charCodeAt(0) - (c <= 'Z' ? 65 : 97) + by) % 26) + (c <= 'Z' ? 65 : 97)),
  );
const sentence = 'the hidden answer lives in /app/report.json now';

test('element access, indexed fragments and loops are folded', () => {
  assert.deepEqual(encodingsOf(`const p = ['report', '/app/', '.json']; x = p[1] + p[0]! + p[2];`), ['indexed']);
  assert.deepEqual(
    encodingsOf(
      `const p = ['.json', '/app/', 'report']; const order = [1, 2, 0]; x = order.map((i) => p[i]).join('');`,
    ),
    ['indexed'],
  );
  assert.deepEqual(
    encodingsOf(`const p = ['/app/', 'report', '.json']; let s = ''; for (const piece of p) s += piece;`),
    ['joined'],
  );
  assert.deepEqual(
    encodingsOf(
      `const p = ['.json', 'report', '/app/']; const o = [2, 1, 0]; let s = ''; for (let i = 0; i < o.length; i++) s += p[o[i]!]!;`,
    ),
    ['indexed'],
  );
  assert.deepEqual(encodingsOf(`x = 'x/app'.charAt(1) + 'app/report.json'`), ['indexed']);
});

test('arithmetic, shifted and XOR-ed character codes are decoded', () => {
  const sums = [...target].map((char) => `${char.charCodeAt(0) - 7} + 7`).join(', ');
  assert.deepEqual(encodingsOf(`x = String.fromCharCode(${sums});`), ['char-codes']);
  assert.deepEqual(encodingsOf(`x = String.fromCharCode(0x28 + 0x7, 100 - 3, 0x70, 0x70, 44 + 3, 0x72);`, '/app/r'), [
    'char-codes',
  ]);
  const xored = [...sentence].map((char) => char.charCodeAt(0) ^ 0x5a).join(', ');
  assert.deepEqual(encodingsOf(`const data = [${xored}]; x = String.fromCharCode(...data.map((c) => c ^ key));`), [
    'xor',
  ]);
  const shifted = [...sentence].map((char) => char.charCodeAt(0) + 11).join(', ');
  assert.deepEqual(encodingsOf(`const data = [${shifted}];`), ['xor']);
  const xoredHex = Buffer.from([...sentence].map((char) => char.charCodeAt(0) ^ 0x21)).toString('hex');
  assert.deepEqual(encodingsOf(`unmask('${xoredHex}')`), ['hex']);
});

test('base32 and rot-n payloads are decoded; honest English is not rotated', () => {
  const base32 = 'F5QXA4BPOJSXA33SOQXGU43PNY======';
  assert.deepEqual(encodingsOf(`fromBase32('${base32}')`), ['base32']);
  assert.deepEqual(encodingsOf(`turn('${rot(sentence, 13)}', 13)`), ['rot-n']);
  assert.deepEqual(encodingsOf(`turn('${rot(sentence, 5)}', 21)`), ['rot-n']);
  assert.ok(
    !decodedStrings(`const hint = 'Read the failing test output before you change any code in the repository.';`).some(
      (found) => found.encoding === 'rot-n',
    ),
  );
});

test('Python sources: literals, joins, chr arithmetic, bytes, comprehensions over an index list, loops', () => {
  const python = (code: string) =>
    [
      ...new Set(
        decodedStrings(code, undefined, 'python')
          .filter((found) => found.text.includes(target))
          .map((found) => found.encoding),
      ),
    ].sort();
  assert.deepEqual(python(`X = "${target}"  # it's here`), ['plain']);
  assert.deepEqual(python(`X = "".join(["/app/", "report", ".json"])`), ['joined']);
  assert.deepEqual(python(`X = ${[...target].map((char) => `chr(${char.charCodeAt(0) - 1} + 1)`).join(' + ')}`), [
    'char-codes',
  ]);
  assert.deepEqual(python(`X = bytes.fromhex("${hex}").decode()`), ['hex']);
  assert.deepEqual(python(`P = [".json", "/app/", "report"]\nO = [1, 2, 0]\nX = "".join(P[i] for i in O)`), [
    'indexed',
  ]);
  assert.deepEqual(python(`P = ["/app/", "report", ".json"]\nX = ""\nfor p in P:\n    X += p\n`), ['joined']);
  assert.deepEqual(python(`X = "${[...target].reverse().join('')}"[::-1]`), ['reversed']);
});
