import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Frame } from './cpu-profile-tree.ts';
import { flameGraphSvg } from './flame-graph-svg.ts';

function frame(name: string, selfMs: number, children: Frame[] = []): Frame {
  const totalMs = selfMs + children.reduce((sum, child) => sum + child.totalMs, 0);
  return {
    name,
    location: name === 'all' ? '' : `app/${name}.ts:1`,
    category: name === 'all' ? 'engine' : 'project',
    selfMs,
    totalMs,
    children,
  };
}

/** Every drawn box: its hover text, place and width. */
function boxes(svg: string): { tip: string; x: number; y: number; width: number }[] {
  return [...svg.matchAll(/<g><title>([^<]*)<\/title><rect x="([\d.]+)" y="(\d+)" width="([\d.]+)"/g)].map(
    ([, tip, x, y, width]) => ({ tip: tip!, x: Number(x), y: Number(y), width: Number(width) }),
  );
}

test('each box is as wide as its share of the root, callees above their caller and inside its span', () => {
  const tree = frame('all', 0, [frame('serve', 10, [frame('parse', 30), frame('meter', 10)]), frame('log', 50)]);
  const svg = flameGraphSvg(tree, { title: 'gateway', widthPx: 1020 });
  const drawn = boxes(svg);
  assert.equal(drawn.length, 5);
  const byName = new Map(drawn.map((box) => [box.tip.split(/[ :]/)[0]!, box]));
  assert.equal(byName.get('all')!.width, 1000);
  assert.equal(byName.get('serve')!.width, 500);
  assert.equal(byName.get('parse')!.width, 300);
  assert.equal(byName.get('log')!.width, 500);
  assert.ok(byName.get('parse')!.y < byName.get('serve')!.y, 'a callee sits above its caller');
  const serve = byName.get('serve')!;
  for (const name of ['parse', 'meter']) {
    const box = byName.get(name)!;
    assert.ok(box.x >= serve.x && box.x + box.width <= serve.x + serve.width + 1e-9, `${name} inside serve`);
  }
  assert.notEqual(byName.get('parse')!.x, byName.get('meter')!.x, 'siblings side by side');
  assert.match(byName.get('parse')!.tip, /^parse app\/parse\.ts:1: 30\.0 ms \(30\.0 %\), own 30\.0 ms$/);
});

test('names from the profiled code are escaped, and boxes too narrow to see are left out', () => {
  const tree = frame('all', 0, [frame('<script>alert("x")</script>&', 1000), frame('tiny', 0.01)]);
  const svg = flameGraphSvg(tree, { title: 'a <title>', widthPx: 520 });
  assert.ok(!svg.includes('<script>'));
  assert.ok(svg.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;'));
  assert.ok(svg.includes('a &lt;title&gt;'));
  assert.equal(boxes(svg).filter((box) => box.tip.startsWith('tiny')).length, 0);
});

test('an empty tree is an empty graph, not a division by zero', () => {
  const svg = flameGraphSvg(frame('all', 0), { title: 'nothing' });
  assert.ok(!svg.includes('NaN') && !svg.includes('Infinity'));
});
