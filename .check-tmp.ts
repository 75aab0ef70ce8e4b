import { buildScenarioFingerprints } from './packs/preeval/scenario-fingerprints.ts';
import { scanPack } from './packs/preeval/static-scan.ts';
import { readCorpus } from './packs/preeval/testing/corpus.ts';
import { bundlePack } from './packs/bundle-pack.ts';
import { packKindOf } from './packs/pack-format.ts';
const fp = await buildScenarioFingerprints();
for (const e of await readCorpus()) {
  let bundleCode: string | undefined;
  if (packKindOf(e.pack) === 'typescript') { try { bundleCode = (await bundlePack(e.pack)).code; } catch (err) { console.log('BUNDLE FAIL', e.name, String(err).slice(0, 200)); } }
  const r = scanPack({ pack: e.pack, bundleCode }, fp);
  console.log(e.group.padEnd(8), e.name.padEnd(24), r.verdict, r.score, [...new Set(r.evidence.map((x) => `${x.kind}/${x.encoding}@${x.file}`))].slice(0, 8).join(' '));
}
import { judgeFiles } from './simfleet/judge-heuristics.ts';
for (const e of await readCorpus()) console.log('judge', e.group, e.name, JSON.stringify(judgeFiles(Object.entries(e.pack.files).map(([path, text]) => ({ path, text })), []).map((f) => `${f.type}:${f.evidence.slice(0, 50)}`)));
