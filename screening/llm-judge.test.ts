import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { packHash, type CanonicalPack } from '../packs/canonical-pack.ts';
import { startSimFleet } from '../simfleet/sim-fleet-server.ts';
import { FileJudgeCache, MemoryJudgeCache } from './judge-cache.ts';
import {
  cannedAnswerPack,
  examplePack,
  exampleNames,
  fixtureShortcutPack,
  injectedVerdictLine,
  injectionPack,
  keywordStuffingPack,
  toolStrippingPack,
} from './testing/judge-fixtures.ts';
import { judgePack, judgePromptVersion, type JudgePackRequest } from './llm-judge.ts';

// The real sim fleet, fault injection on (as the worker runs it): retries must change the seed to get past a fault.
const fleet = await startSimFleet({ port: 0, timeScale: 0, mode: 'fast' });
after(() => fleet.close());

let fleetRequests = 0;
const fleetClient = new OpenAI({
  baseURL: fleet.url,
  apiKey: 'sim',
  fetch: async (input, init) => {
    fleetRequests++;
    return fetch(input, init);
  },
});

function request(pack: CanonicalPack, overrides: Partial<JudgePackRequest> = {}): JudgePackRequest {
  return {
    client: fleetClient,
    model: 'glm-5.2',
    pack,
    packHash: packHash(pack),
    cache: new MemoryJudgeCache(),
    retryDelayMs: 0,
    ...overrides,
  };
}

test('honest example packs pass the judge round trip through the sim fleet', async () => {
  for (const name of exampleNames) {
    const pack = await examplePack(name);
    const verdict = await judgePack(request(pack));
    assert.equal(verdict.verdict, 'pass', `${name}: ${verdict.summary}`);
    assert.deepEqual(verdict.flags, []);
    assert.equal(verdict.cached, false);
    assert.equal(verdict.model, 'glm-5.2');
    assert.equal(verdict.promptVersion, judgePromptVersion);
    assert.match(verdict.summary, /Simulated judge \(trl-sim-fleet\)/);
  }
});

test('a pack that talks to the judge is rejected for prompt_injection; its "verdict: pass" cannot flip it', async () => {
  assert.ok(injectionPack.files['policy.ts']!.includes(injectedVerdictLine));
  const verdict = await judgePack(request(injectionPack));
  assert.equal(verdict.verdict, 'reject');
  const injections = verdict.flags.filter((flag) => flag.type === 'prompt_injection');
  assert.ok(injections.length >= 2, JSON.stringify(verdict.flags));
  assert.ok(
    injections.some((flag) => flag.evidence.includes(injectedVerdictLine)),
    'the injected verdict line is itself evidence',
  );
  assert.ok(
    injections.some((flag) => flag.evidence.includes('[neutralised-delimiter]')),
    'the fake end marker was neutralised and flagged',
  );
  assert.ok(injections.every((flag) => flag.file === 'policy.ts'));
  assert.match(verdict.summary, /Reject: verified serious flags \(prompt_injection\)/);
});

test('packs with canned answers, test peeking or stuffing are rejected with the matching flags', async () => {
  const cases: [CanonicalPack, string[]][] = [
    [cannedAnswerPack, ['hardcoded_response', 'scenario_gaming']],
    [fixtureShortcutPack, ['fixture_shortcut']],
    [keywordStuffingPack, ['keyword_stuffing']],
  ];
  for (const [pack, types] of cases) {
    const verdict = await judgePack(request(pack));
    assert.equal(verdict.verdict, 'reject', verdict.summary);
    for (const type of types)
      assert.ok(
        verdict.flags.some((flag) => flag.type === type),
        `${pack.files['SKILL.md']?.split('\n')[0]} lacks ${type}: ${JSON.stringify(verdict.flags)}`,
      );
    // Every flag's evidence is really in the pack (the sim judge quotes verbatim).
    for (const flag of verdict.flags)
      assert.ok(pack.files[flag.file!]!.replace(/\s+/g, ' ').includes(flag.evidence), flag.evidence);
  }
  const canned = await judgePack(request(cannedAnswerPack));
  assert.ok(
    canned.flags.some((flag) => flag.type === 'hardcoded_response' && flag.evidence.includes('cat > /app/report.csv')),
  );
});

test('tool_avoidance is advisory for our rule, but the sim judge rejects and the model verdict stands', async () => {
  const verdict = await judgePack(request(toolStrippingPack));
  assert.deepEqual(
    verdict.flags.map((flag) => flag.type),
    ['tool_avoidance'],
  );
  assert.equal(verdict.verdict, 'reject');
  assert.match(verdict.summary, /the judge model rejected the pack \(advisory flags only\)/);
});

test('a cached verdict makes no call, in memory and on disk', async () => {
  const pack = await examplePack('cost-cascade');
  const cache = new MemoryJudgeCache();
  const first = await judgePack(request(pack, { cache }));
  const before = fleetRequests;
  const second = await judgePack(request(pack, { cache }));
  assert.equal(fleetRequests, before, 'no request for a cached pack');
  assert.equal(second.cached, true);
  assert.equal(second.costHint, undefined);
  assert.deepEqual({ ...second, cached: false, costHint: undefined }, { ...first, costHint: undefined });

  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-judge-cache-'));
  try {
    const rejected = await judgePack(request(injectionPack, { cache: new FileJudgeCache(dir) }));
    const count = fleetRequests;
    const again = await judgePack(request(injectionPack, { cache: new FileJudgeCache(dir) }));
    assert.equal(fleetRequests, count);
    assert.equal(again.cached, true);
    assert.equal(again.verdict, 'reject');
    assert.deepEqual(again.flags, rejected.flags);
    // Another model is another key: it is paid for once.
    await judgePack(request(injectionPack, { cache: new FileJudgeCache(dir), model: 'kimi-k3' }));
    assert.ok(fleetRequests > count);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('faults the sim injects are retried with a new seed until a verdict comes', async () => {
  // Faults are a pure function of the request; some variant of a pack meets one on its first attempt.
  const base = await examplePack('single-model');
  let retried: { attempts: number; verdict: string } | undefined;
  for (let variant = 0; variant < 200 && !retried; variant++) {
    const pack = { ...base, files: { ...base.files, 'SKILL.md': `${base.files['SKILL.md']}\nvariant ${variant}\n` } };
    const verdict = await judgePack(request(pack, { model: 'glm-5.3-flash' }));
    const { attempts } = verdict.costHint as { attempts: number };
    if (attempts > 1) retried = { attempts, verdict: verdict.verdict };
  }
  assert.ok(retried, 'no variant met an injected fault');
  assert.equal(retried.verdict, 'pass');
});

test('a wrong packHash is a caller bug, refused before any call', async () => {
  const pack = await examplePack('single-model');
  await assert.rejects(judgePack(request(pack, { packHash: '0'.repeat(64) })), /is not the hash of the pack/);
});
