import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeForScan } from './normalize-text.ts';

test('zero-width and format characters are removed, look-alikes folded, full-width letters made plain', () => {
  assert.equal(normalizeForScan('sa\u200bles\u200c.\u2060csv\u00ad'), 'sales.csv');
  assert.equal(normalizeForScan('\u0441\u043er\u0435 \u03bfrd\u0435rs \u03c1ay'), 'core orders pay');
  assert.equal(
    normalizeForScan('\uff53\uff41\uff4c\uff45\uff53 \ud835\udc2c\ud835\udc1a\ud835\udc25\ud835\udc1e'),
    'sales sale',
  );
  assert.equal(normalizeForScan('te\u0301st\ufe0f'), 'tést');
});

test('line breaks stay where they are, and ASCII text comes back unchanged', () => {
  const text = 'a\u200b\nb\u200d\n\nc';
  assert.equal(normalizeForScan(text).split('\n').length, text.split('\n').length);
  const ascii = 'const x = 1;\nreturn x;\n';
  assert.equal(normalizeForScan(ascii), ascii);
});
