import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inFlightSvg } from './in-flight-svg.ts';

test('one step line per run, labelled, scaled to the longest run and the most in flight', () => {
  const svg = inFlightSvg(
    [
      {
        label: '1 host',
        points: [
          [0, 0],
          [10, 4],
          [60, 2],
          [120, 0],
        ],
      },
      {
        label: '2 hosts <b>',
        points: [
          [0, 0],
          [5, 8],
          [60, 0],
        ],
      },
    ],
    'epoch',
  );
  assert.equal(svg.match(/<polyline /g)?.length, 2);
  assert.match(svg, />1 host</);
  assert.match(svg, />2 hosts &lt;b></, 'labels are escaped');
  // The first line's step at 10 s: a horizontal move at the old height, then up to 4.
  const first = /points="([^"]+)"/.exec(svg)![1]!.split(' ');
  assert.equal(first.length, 7);
  assert.equal(first[1]!.split(',')[1], first[0]!.split(',')[1], 'a step holds its height until the next sample');
  assert.ok(svg.startsWith('<svg') && svg.trimEnd().endsWith('</svg>'));
});
