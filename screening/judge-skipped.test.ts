// An upstream that cannot judge (the local model) skips the LLM judge: the pack is not rejected for want of a
// verdict, the judge is never called, and the report says why; the deterministic checks still run.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../common/data-layout.ts';
import type { ChatUpstream } from '../gateway/upstream/chat-upstream.ts';
import { bundlePack } from '../packs/bundle-pack.ts';
import { packHash } from '../packs/canonical-pack.ts';
import { readPackDirectory } from '../packs/read-pack.ts';
import type { JudgeCache } from './judge-cache.ts';
import type { PackOwners } from './pack-owners.ts';
import { parsePreEvalConfig } from './preeval-config.ts';
import { localOwner, runPreEval } from './run-preeval.ts';
import { buildScenarioFingerprints } from './scenario-fingerprints.ts';

const config = parsePreEvalConfig(JSON.stringify({ version: 1, judge: { enabled: true, model: 'glm-5.2' } }));

async function preEval(skipped: string | undefined) {
  const pack = await readPackDirectory(path.join(repoRoot, 'policy', 'examples', 'cost-cascade'));
  const fingerprints = await buildScenarioFingerprints();
  let calls = 0;
  const client = {
    chat: {
      completions: {
        create: () => {
          calls++;
          throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        },
      },
    },
  } as unknown as ChatUpstream;
  const cache = { get: async () => undefined, set: async () => undefined } as unknown as JudgeCache;
  const report = await runPreEval(
    {
      pack,
      packHash: packHash(pack),
      bundleCode: (await bundlePack(pack)).code,
      owner: localOwner,
      claimedAt: new Date().toISOString(),
    },
    {
      config: { ...config, judge: { ...config.judge, maxAttempts: 1 } },
      owners: {} as PackOwners,
      fingerprints: async () => fingerprints,
      earlierPacks: async () => [],
      judge: { client, cache, skipped },
    },
  );
  return { report, calls };
}

test('an upstream that cannot judge: the judge is not asked, the pack passes the other checks, the report says why', async () => {
  const { report, calls } = await preEval('the local model (smollm2-135m-instruct) cannot judge packs');
  assert.equal(calls, 0);
  assert.equal(report.verdict, 'pass', JSON.stringify(report.reasons));
  assert.equal(report.judge, undefined);
  assert.match(report.judgeSkipped ?? '', /cannot judge/);
});

test('any other upstream is asked, and no verdict still rejects the pack (fail closed)', async () => {
  const { report, calls } = await preEval(undefined);
  assert.equal(calls, 1);
  assert.equal(report.verdict, 'reject');
  assert.equal(report.reasons[0]?.code, 'judge_unavailable');
  assert.equal(report.judgeSkipped, undefined);
});
