import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countPythonTests } from './count-tests.ts';

test('plain test functions count once each, helpers and classes not at all', () => {
  const source = [
    'import pytest',
    'def helper(): pass',
    'def test_a(): pass',
    'class TestGroup:',
    '    def test_b(self): pass',
    'async def test_c(): pass',
  ].join('\n');
  assert.equal(countPythonTests(source), 3);
});

test('parametrize lists multiply, tuples and strings with commas included', () => {
  const source = [
    '@pytest.mark.parametrize("a,b", [(1, 2), (3, 4), (5, [6, 7])])',
    'def test_pairs(a, b): pass',
    '',
    "@pytest.mark.parametrize('text', ['x,y', \"z\", 'it\\'s'])",
    '@pytest.mark.parametrize("n", (1, 2))',
    'def test_grid(text, n): pass',
    '',
    '@pytest.mark.parametrize(',
    '    "db",',
    '    ["shipped", "variant"],',
    ')',
    'def test_multiline(db): pass',
  ].join('\n');
  assert.equal(countPythonTests(source), 3 + 3 * 2 + 2);
});
