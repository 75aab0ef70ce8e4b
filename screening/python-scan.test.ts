import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanPython, type PythonString } from './python-scan.ts';

function strings(source: string): PythonString[] {
  const found: PythonString[] = [];
  scanPython(source, { string: (literal) => found.push(literal) });
  return found;
}

test('a prefix is a whole word before the quote; other words and comments are not strings', () => {
  const found = strings(`a = rb'\\d' + f"{x}" # "no"\nname"y"\n_f'z'`);
  assert.deepEqual(
    found.map((s) => [s.prefix, s.value, s.line]),
    [
      ['rb', '\\d', 1],
      ['f', '{x}', 1],
      ['', 'y', 2],
      ['', 'z', 3],
    ],
  );
  assert.equal(found[0]!.raw, "rb'\\d'");
  const words: string[] = [];
  scanPython(`name"y" # c`, { word: (word) => words.push(word), comment: (raw) => words.push(raw) });
  assert.deepEqual(words, ['name', '# c']);
});

test('lines stay right after an unterminated one-line string', () => {
  assert.deepEqual(
    strings("x = 'abc\ny = 'z'\n").map((s) => [s.value, s.line]),
    [
      ['abc', 1],
      ['z', 2],
    ],
  );
  assert.deepEqual(
    strings('"""a\nb"""\n\'c').map((s) => [s.value, s.line]),
    [
      ['a\nb', 1],
      ['c', 3],
    ],
  );
});

test('every character outside comments, words and strings goes to the caller once, whatever it takes', () => {
  const seen: number[] = [];
  scanPython('(1+22)', {
    other: (at) => {
      seen.push(at);
      return at === 2 ? 0 : 1;
    },
  });
  assert.deepEqual(seen, [0, 1, 2, 3, 4, 5]);
});
