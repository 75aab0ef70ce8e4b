// How long the pre-evaluation scans take, in this thread, on the hostile packs (each near the pack
// size limit) and on the whole fixture corpus: the static scan (every file, decoded) and the
// similarity check against every other corpus pack. One run each after a warm-up; a table on stdout.
// Then the same scans as pre-evaluation runs them, off the loop (screening/off-loop.ts): the
// first task of a thread (its start: tsx, the scan's modules, the fingerprints sent over) beside the
// warm ones that follow, wall and this process's CPU (the threads' included).
//   node --import tsx bench/preeval-scan.ts
import { performance } from 'node:perf_hooks';
import { canonicalJson, packHash, type CanonicalPack } from '../packs/canonical-pack.ts';
import { buildScenarioFingerprints } from '../screening/scenario-fingerprints.ts';
import { findNearCopies } from '../screening/similarity.ts';
import { scanPack } from '../screening/static-scan.ts';
import { runOffLoop, type OffLoopTask } from '../screening/off-loop.ts';
import { defaultScanThresholds } from '../screening/scan-thresholds.ts';
import { readLocalPack } from '../packs/read-pack.ts';
import { examplesDir } from '../common/data-layout.ts';
import path from 'node:path';
import { readCorpus } from '../screening/testing/corpus.ts';
import { hostilePacks } from '../test/fixtures/hostile/hostile-packs.ts';

const fingerprints = await buildScenarioFingerprints();
const corpus = await readCorpus();
const others = corpus.map((entry) => ({ packHash: packHash(entry.pack), pack: entry.pack }));

function timed(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

const rows: string[][] = [['pack', 'bytes', 'scan ms', `similarity ms (vs ${others.length})`]];
const measure = (name: string, pack: CanonicalPack) => {
  scanPack({ pack }, fingerprints);
  rows.push([
    name,
    String(Buffer.byteLength(canonicalJson(pack))),
    timed(() => scanPack({ pack }, fingerprints)).toFixed(0),
    timed(() => findNearCopies(pack, others, 0.3)).toFixed(0),
  ]);
};
for (const [name, build] of Object.entries(hostilePacks)) measure(name, build());
const corpusScanMs = timed(() => corpus.forEach((entry) => scanPack({ pack: entry.pack }, fingerprints)));
rows.push([`whole corpus (${corpus.length} packs), scan only`, '', corpusScanMs.toFixed(0), '']);
const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));

// Off the loop: a fresh process's first task starts a thread; the next ones find it warm.
const example = await readLocalPack(path.join(examplesDir, 'cost-cascade'));
const tasks: [string, OffLoopTask][] = [
  [
    'static scan, cost-cascade',
    { task: 'scan', input: { pack: example }, fingerprints, thresholds: defaultScanThresholds },
  ],
  [`similarity, cost-cascade vs ${others.length}`, { task: 'similarity', candidate: example, others, threshold: 0.3 }],
];
const offLoop: string[][] = [['off the loop', 'wall ms', 'CPU ms (threads included)']];
const once = async (task: OffLoopTask) => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await runOffLoop(task);
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
};
// The process's first task starts the thread; the ones after find it warm (medians of 10).
for (const [index, [name, task]] of tasks.entries()) {
  if (index === 0) {
    const first = await once(task);
    offLoop.push([`${name}: the first task, a new thread`, first.wall.toFixed(0), first.cpu.toFixed(0)]);
  }
  const warm = [];
  for (let i = 0; i < 10; i++) warm.push(await once(task));
  warm.sort((a, b) => a.wall - b.wall);
  offLoop.push([`${name}: warm`, warm[5]!.wall.toFixed(1), warm[5]!.cpu.toFixed(1)]);
}
const offWidths = offLoop[0]!.map((_, column) => Math.max(...offLoop.map((row) => row[column]!.length)));
console.log('');
for (const row of offLoop) console.log(row.map((cell, column) => cell.padEnd(offWidths[column]!)).join('  '));
