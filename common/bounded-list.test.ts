import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { capList, capRecords, noteBounds, truncateUtf8 } from './bounded-list.ts';

test('a short list is kept as it is', () => {
  assert.deepEqual(capList(['a', 'b']), ['a', 'b']);
});

test('a long list ends with "+N more" and stays within its bounds', () => {
  const notes = capList(Array.from({ length: 10_000 }, (_, i) => `file-${i}: odd`));
  assert.equal(notes.length, noteBounds.maxItems + 1);
  assert.equal(notes.at(-1), `+${10_000 - noteBounds.maxItems} more`);
});

test('multi-byte text is cut at a character boundary', () => {
  const cut = truncateUtf8('é'.repeat(100), 11);
  assert.ok(Buffer.byteLength(cut) <= 11);
  assert.ok(!cut.includes('\uFFFD'));
});

test('property: whatever the input, the capped list is within count and bytes', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 5000, unit: 'binary' }), { maxLength: 300 }), (items) => {
      const capped = capList(items);
      assert.ok(capped.length <= noteBounds.maxItems + 1);
      assert.ok(Buffer.byteLength(capped.join(''), 'utf8') <= noteBounds.maxTotalBytes + 32);
    }),
    { numRuns: 200 },
  );
});

test('records: string fields cut, the tail summarised', () => {
  const faults = capRecords(
    Array.from({ length: 500 }, () => ({ kind: 'protocol', message: 'x'.repeat(100_000) })),
    { maxItems: 50, maxItemBytes: 1000, maxTotalBytes: 32 * 1024 },
    (more) => ({ kind: 'truncated', message: `+${more} more` }),
  );
  assert.ok(Buffer.byteLength(JSON.stringify(faults)) < 40 * 1024);
  assert.match(faults.at(-1)!.message, /^\+\d+ more$/);
});
