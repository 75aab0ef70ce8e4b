// How long the pre-evaluation scans take, in this thread, on the hostile packs (each near the pack
// size limit) and on the whole fixture corpus: the static scan (every file, decoded) and the
// similarity check against every other corpus pack. One run each after a warm-up; a table on stdout.
//   node --import tsx bench/preeval-scan.ts
import { performance } from 'node:perf_hooks';
import { canonicalJson, packHash, type CanonicalPack } from '../packs/canonical-pack.ts';
import { buildScenarioFingerprints } from '../packs/preeval/scenario-fingerprints.ts';
import { findNearCopies } from '../packs/preeval/similarity.ts';
import { scanPack } from '../packs/preeval/static-scan.ts';
import { readCorpus } from '../packs/preeval/testing/corpus.ts';
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
  rows.push([name, String(Buffer.byteLength(canonicalJson(pack))), timed(() => scanPack({ pack }, fingerprints)).toFixed(0), timed(() => findNearCopies(pack, others, 0.3)).toFixed(0)]);
};
for (const [name, build] of Object.entries(hostilePacks)) measure(name, build());
const corpusScanMs = timed(() => corpus.forEach((entry) => scanPack({ pack: entry.pack }, fingerprints)));
rows.push([`whole corpus (${corpus.length} packs), scan only`, '', corpusScanMs.toFixed(0), '']);
const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
