import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTable } from './render-table.ts';

test('columns are padded, numbers right-aligned, footer under a rule', () => {
  const text = renderTable(
    [
      { header: 'name', value: (r: { n: string; v: number }) => r.n },
      { header: 'value', value: (r) => r.v, align: 'right' },
    ],
    [
      { n: 'alpha', v: 1 },
      { n: 'b', v: 22 },
    ],
    { n: 'total', v: 23 },
  );
  assert.equal(
    text,
    ['name   value', '─────  ─────', 'alpha      1', 'b         22', '─────  ─────', 'total     23'].join('\n'),
  );
});
