import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pythonStringLiterals, pythonTestNames } from './python-literals.ts';

const source = `"""Module docstring
on two lines."""
import json
# a comment with "no literal"
EXPECTED = "Office Chair"
RAW = r"\\d+\\.json"
def test_top_product(tmp_path):
    assert data["top_product"] == EXPECTED, f"got {data!r}"
    assert b'bytes' in out

class TestRefs:
    async def test_refs_exist(self):
        pass
`;

test('literals carry their value, line and whether they are f-strings; comments are not literals', () => {
  const literals = pythonStringLiterals(source);
  assert.deepEqual(
    literals.map((literal) => [literal.value, literal.line, literal.formatted]),
    [
      ['Module docstring\non two lines.', 1, false],
      ['Office Chair', 5, false],
      ['\\d+\\.json', 6, false],
      ['top_product', 8, false],
      ['got {data!r}', 8, true],
      ['bytes', 9, false],
    ],
  );
});

test('test functions and test classes are found with their lines', () => {
  assert.deepEqual(pythonTestNames(source), [
    { name: 'test_top_product', line: 7 },
    { name: 'TestRefs', line: 11 },
    { name: 'test_refs_exist', line: 12 },
  ]);
});

test('odd input never throws', () => {
  for (const text of ['"unterminated', "'''open", 'x = "a\\', ''])
    assert.doesNotThrow(() => pythonStringLiterals(text));
});
