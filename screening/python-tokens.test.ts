import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenizePython } from './python-tokens.ts';

test('strings of every prefix and quoting, comments with quotes in them, lines kept', () => {
  const tokens = tokenizePython(`# it's a comment\nx = r"a\\\\b" + b'c' f"{y}"\ndoc = """one\ntwo"""\nz = 'tail`);
  const strings = tokens.filter((token) => token.type === 'string').map((token) => [token.value, token.line]);
  assert.deepEqual(strings, [
    ['a\\\\b', 2],
    ['c', 2],
    ['{y}', 2],
    ['one\ntwo', 3],
    ['tail', 5],
  ]);
  assert.equal(tokens[0]!.type, 'comment');
  assert.deepEqual(
    tokens.filter((token) => token.type === 'keyword').map((token) => token.raw),
    [],
  );
  assert.deepEqual(
    tokenizePython('for i in range(3): s += p[i] // 2').map((token) => token.raw),
    ['for', 'i', 'in', 'range', '(', '3', ')', ':', 's', '+=', 'p', '[', 'i', ']', '//', '2'],
  );
});
