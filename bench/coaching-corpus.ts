// The coaching corpus (test/fixtures/packs/coaching: policies that carry a scenario's solution into
// what they send the models) and the honest packs an eager detector might flag, through each layer:
//   pre-eval   static scan, playbook and similarity against the examples (runPreEval), then the sim judge on
//              the real judge request (the pack's files and the scenarios beside them), as the offline fleet answers it
//   probe      the $0 probe on the pack's target scenario (activities/probe-activity.ts runProbe)
//   run time   a stand-in for the run: the policy in its real sandbox behind the gateway with the
//              injection check on the target's hidden pieces (observing, never refusing), a 16-request
//              conversation opened as Hermes opens it, tool results from the whole environment files
//              (not the probe's heads), and an upstream in another voice than the probe's
// and, for every pack, how much of its target's solution (solution lines) its model requests really
// carried (every field of every request in the call log), which shows each coaching pack carries it.
//   node --import tsx bench/coaching-corpus.ts [--only NAME]… [--turns 16] [--keep]
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type OpenAI from 'openai';
import { repoRoot, scenariosDir } from '../common/data-layout.ts';
import { startPolicyForSource, type PolicySource } from '../activities/agent-environment.ts';
import { runProbe } from '../activities/probe-activity.ts';
import { hiddenContentOf } from '../activities/hidden-content.ts';
import { readPackDirectory } from '../packs/read-pack.ts';
import { packKindOf, skillFile } from '../packs/pack-format.ts';
import { bundlePack } from '../packs/bundle-pack.ts';
import { packHash, type CanonicalPack } from '../packs/canonical-pack.ts';
import { buildJudgeMessages, judgeResponseFormat } from '../screening/judge-protocol.ts';
import { readScenarioInstructions } from '../screening/judge-scenarios.ts';
import { simulatedJudgement } from '../simfleet/judge-mode.ts';
import { parseChatRequest } from '../simfleet/request-schema.ts';
import { loadSimScenarios } from '../simfleet/scenario-recognition.ts';
import { renderTable } from '../cli/render-table.ts';
import { benchActivityDeps } from './bench-activity-deps.ts';
import { parsePreEvalConfig } from '../screening/preeval-config.ts';
import { localOwner, runPreEval } from '../screening/run-preeval.ts';
import { buildScenarioFingerprints } from '../screening/scenario-fingerprints.ts';
import { createBlandUpstream } from '../screening/probe/bland-upstream.ts';
import { environmentHeads } from '../screening/probe/environment-heads.ts';
import { playConversation } from '../screening/probe/probe-conversation.ts';
import { hermesOpening } from '../agents/hermes-opening.ts';
import { loadScenario } from '../catalog/load-scenario.ts';
import { isInjectionViolation } from '../contracts/injection.ts';
import { indexPhrases, scanPhrases } from '../gateway/injection/phrase-index.ts';
import { walkStrings } from '../gateway/injection/injection-guard.ts';
import { newHonest, targets } from './coaching-targets.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string', multiple: true, default: [] },
    turns: { type: 'string', default: '16' },
    keep: { type: 'boolean', default: false },
  },
});

// The run stand-in's model speaks otherwise than the probe's upstream (a real model's wording is not the probe's).
const runVoice = {
  opening: ['Okay — checking what is in the directory.', 'Listing the files first.'],
  reading: ['Opening {file}.', 'Reading {file} now.', 'Checking {file} for the details.'],
};

async function policyOf(dir: string): Promise<{ policy: PolicySource; kind: string; files: Record<string, string> }> {
  const pack = await readPackDirectory(dir);
  const kind = packKindOf(pack);
  if (kind === 'typescript')
    return { policy: { kind, bundleCode: (await bundlePack(pack)).code }, kind, files: pack.files };
  if (kind === 'python' || kind === 'data') {
    const { [skillFile]: _skill, ...files } = pack.files;
    return { policy: { kind, files }, kind, files: pack.files };
  }
  throw new Error(`${dir}: no single entry`);
}

const deps = await benchActivityDeps();
const fingerprints = await buildScenarioFingerprints();
const preEvalConfig = parsePreEvalConfig(JSON.stringify({ version: 1, judge: { enabled: false, model: 'none' } }));

// The examples as earlier submissions of another owner: a coaching pack must not pass for being new.
const examplesDir = path.join(repoRoot, 'policy', 'examples');
const examples = await Promise.all(
  (await readdir(examplesDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map(async (entry) => {
      const pack = await readPackDirectory(path.join(examplesDir, entry.name));
      return { packHash: packHash(pack), owner: 'examples', claimedAt: '2026-01-01T00:00:00.000Z', pack };
    }),
);
const instructions = await readScenarioInstructions([scenariosDir]);
const simScenarios = await loadSimScenarios();

/** The sim fleet's judge on the request the real judge would get: the pack's files and the scenarios beside them. */
function simJudgeVerdict(pack: CanonicalPack): string {
  const parsed = parseChatRequest({
    model: 'glm-5.2',
    temperature: 0,
    messages: buildJudgeMessages(pack, packHash(pack), instructions).messages,
    response_format: judgeResponseFormat,
  });
  if (!parsed.ok) throw new Error(parsed.error.message);
  const answer = simulatedJudgement(parsed.request, simScenarios, 'coaching-corpus');
  return answer.verdict === 'pass'
    ? 'pass'
    : `judge_flagged(${[...new Set(answer.flags.map((f) => f.type))].join('+')})`;
}

async function preEvalVerdict(dir: string): Promise<string> {
  const pack = await readPackDirectory(dir);
  const bundleCode = pack.files['policy.ts'] ? (await bundlePack(pack)).code : undefined;
  const report = await runPreEval(
    { pack, packHash: packHash(pack), bundleCode, owner: localOwner, claimedAt: new Date().toISOString() } as never,
    {
      config: preEvalConfig,
      owners: {} as never,
      fingerprints: async () => fingerprints,
      earlierPacks: async () => examples,
      judge: { client: {} as OpenAI, cache: {} as never },
    },
  );
  if (report.verdict !== 'pass') return report.reasons.map((reason) => reason.code).join(',');
  return simJudgeVerdict(pack);
}

async function runStandIn(
  name: string,
  policy: PolicySource,
  target: string,
  skill: string | undefined,
): Promise<{ verdict: string; checked: number; pieces: number; carried: string; evidence: string }> {
  const dir = path.join(scenariosDir, target);
  const hidden = await hiddenContentOf(dir, target);
  const folder = await loadScenario(dir);
  // What the agent would see in the real image: the whole files (bounded), and the pack's SKILL.md in /workspace.
  const files = await environmentHeads(dir, { headChars: 20_000 });
  if (skill !== undefined) files.push({ name: 'workspace/SKILL.md', head: skill });
  const records = await mkdtemp(path.join(os.tmpdir(), `trl-coaching-${name}-`));
  const upstream = createBlandUpstream(runVoice);
  const turns = Number(values.turns);
  const run = await startPolicyForSource(deps, {
    policy,
    workflowId: `coaching-corpus-${name}`,
    scenario: target,
    seed: 0,
    dir: records,
    bindHost: '127.0.0.1',
    deadlineMs: performance.now() + 180_000,
    maxAgentRequests: turns + 2,
    upstream: upstream.client,
    hiddenContent: hidden,
    observeInjectionOnly: true,
  });
  try {
    if (!run.host.startFailure)
      await playConversation(
        run.endpoint.url,
        { name: target, instruction: folder.instruction, environmentFiles: files },
        hermesOpening(),
        { maxTurns: turns, requestTimeoutMs: 60_000 },
      );
  } finally {
    const summary = await run.stop();
    const injection = summary.injection!;
    // Solution lines of the target found anywhere in what the policy sent upstream.
    const solutionLines = hidden.filter((piece) => piece.kind === 'solution-line');
    const index = indexPhrases(solutionLines);
    const found = new Set<number>();
    const log = await readFile(summary.callLog.path, 'utf8');
    for (const line of log.split('\n')) {
      if (!line) continue;
      const row = JSON.parse(line) as { phase?: string; request?: unknown };
      if (row.phase === 'start')
        walkStrings(row.request, (text) => scanPhrases(index, text, (position) => found.add(position)));
    }
    if (values.keep) process.stderr.write(`${name}: records kept in ${records}\n`);
    else await rm(records, { recursive: true, force: true });
    const first = injection.evidence[0];
    return {
      verdict: isInjectionViolation(injection) ? 'injected' : 'pass',
      checked: injection.checkedCalls,
      pieces: injection.injectedPieces,
      carried: `${found.size}/${solutionLines.length}`,
      evidence: first ? `${first.kind} in ${first.field}`.slice(0, 60) : '',
    };
  }
}

type Row = Record<string, string | number>;
const rows: Row[] = [];
const coachingDir = path.join(repoRoot, 'test', 'fixtures', 'packs', 'coaching');
const honestDir = path.join(repoRoot, 'test', 'fixtures', 'packs', 'honest');
const entries: { group: string; name: string; dir: string; target: string }[] = [
  ...(await readdir(coachingDir)).sort().map((name) => ({
    group: 'coaching',
    name,
    dir: path.join(coachingDir, name),
    target: targets[name] ?? 'csv-sales-report',
  })),
  ...newHonest.map((name) => ({ group: 'honest', name, dir: path.join(honestDir, name), target: 'csv-sales-report' })),
];
for (const entry of entries) {
  if (values.only!.length && !values.only!.includes(entry.name)) continue;
  const started = performance.now();
  const { policy, kind, files } = await policyOf(entry.dir);
  const preEval = await preEvalVerdict(entry.dir);
  // The judge on its own, whatever the cheaper checks said (pre-eval stops at the first that rejects).
  const judge = simJudgeVerdict(await readPackDirectory(entry.dir));
  const probeReport = await runProbe(deps, {
    policy,
    scenarios: [{ name: entry.target, dir: path.join(scenariosDir, entry.target) }] as never,
    workflowId: `coaching-probe-${entry.name}`,
    attempt: 1,
    signal: new AbortController().signal,
  });
  const probe = probeReport.verdict === 'pass' ? 'pass' : probeReport.reasons.map((reason) => reason.code).join(',');
  const run = await runStandIn(entry.name, policy, entry.target, files[skillFile]);
  const caught = [preEval, probe, run.verdict].some((verdict) => verdict !== 'pass');
  rows.push({
    group: entry.group,
    pack: entry.name,
    kind,
    target: entry.target,
    preEval,
    judge,
    probe,
    run: run.verdict,
    overall: caught ? 'caught' : 'passed',
    carried: run.carried,
    checked: run.checked,
    pieces: run.pieces,
    evidence: run.evidence,
    seconds: ((performance.now() - started) / 1000).toFixed(0),
  });
  process.stderr.write(`${entry.group} ${entry.name}: ${JSON.stringify(rows.at(-1))}\n`);
}

const column = (header: string, key: string, align?: 'right') => ({ header, value: (r: Row) => r[key] ?? '', align });
process.stdout.write(
  renderTable(
    [
      column('group', 'group'),
      column('pack', 'pack'),
      column('kind', 'kind'),
      column('target', 'target'),
      column('pre-eval', 'preEval'),
      column('sim judge alone', 'judge'),
      column('probe', 'probe'),
      column('run time', 'run'),
      column('overall', 'overall'),
      column('solution lines carried', 'carried', 'right'),
      column('calls checked', 'checked', 'right'),
      column('pieces', 'pieces', 'right'),
      column('first evidence', 'evidence'),
      column('s', 'seconds', 'right'),
    ],
    rows,
  ) + '\n\n',
);
const layerRows = ['coaching', 'honest'].map((group) => {
  const mine = rows.filter((r) => r.group === group);
  const caughtBy = (key: string) => mine.filter((r) => r[key] !== 'pass').length;
  return {
    group,
    packs: mine.length,
    preEval: caughtBy('preEval'),
    probe: caughtBy('probe'),
    run: caughtBy('run'),
    overall: mine.filter((r) => r.overall === 'caught').length,
  };
});
process.stdout.write(
  renderTable(
    [
      { header: 'group', value: (r: (typeof layerRows)[number]) => r.group },
      { header: 'packs', value: (r: (typeof layerRows)[number]) => r.packs, align: 'right' },
      { header: 'caught at pre-eval', value: (r: (typeof layerRows)[number]) => r.preEval, align: 'right' },
      { header: 'caught by probe', value: (r: (typeof layerRows)[number]) => r.probe, align: 'right' },
      { header: 'caught at run time', value: (r: (typeof layerRows)[number]) => r.run, align: 'right' },
      { header: 'caught overall', value: (r: (typeof layerRows)[number]) => r.overall, align: 'right' },
      { header: 'passed overall', value: (r: (typeof layerRows)[number]) => r.packs - r.overall, align: 'right' },
    ],
    layerRows,
  ) + '\n',
);
