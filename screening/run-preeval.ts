// Pre-evaluation of one pack, cheapest check first: structure, ownership of the hash, static scan
// for scenario-specific content, similarity to earlier packs, and last the LLM judge — the only
// step that costs money, so it runs only for a pack every free check passed.
import type { ChatUpstream } from '../gateway/upstream/chat-upstream.ts';
import type { CanonicalPack } from '../packs/canonical-pack.ts';
import type { Rejection } from '../contracts/results.ts';
import { checkPackFormat, packKindOf } from '../packs/pack-format.ts';
import { checkPythonSyntax } from '../packs/python-syntax.ts';
import type { PackOwners } from './pack-owners.ts';
import type { PreEvalConfig } from './preeval-config.ts';
import type { ScenarioFingerprints } from './scenario-fingerprints.ts';
import type { ScanResult } from './static-scan.ts';
import { defaultContainmentThreshold, type NearCopy } from './similarity.ts';
import { defaultScanTimeLimitMs, runOffLoop, ScanTimeLimitError } from './off-loop.ts';
import { judgePack, JudgeUnavailableError, type JudgeVerdict } from './llm-judge.ts';
import type { JudgeCache } from './judge-cache.ts';
import { playbookRejection } from './skill-playbook.ts';
import type { ScenarioInstruction } from './judge-scenarios.ts';

export interface PreEvalInput {
  pack: CanonicalPack;
  packHash: string;
  bundleCode: string;
  /** The committing hotkey; local runs use "local". */
  owner: string;
  claimedAt: string;
}

export interface PreEvalDependencies {
  config: PreEvalConfig;
  owners: PackOwners;
  fingerprints: () => Promise<ScenarioFingerprints>;
  /** Earlier packs kept by hash, with their owners, for the similarity check. */
  earlierPacks: () => Promise<{ packHash: string; owner?: string; claimedAt?: string; pack: CanonicalPack }[]>;
  /** `skipped`: why this upstream cannot judge (the local model: a sub-1B model's verdict is noise and one call of the
   * judge's size takes minutes on 2 cores); the judge is then not asked, and the report says why. */
  judge: { client: ChatUpstream; cache: JudgeCache; skipped?: string };
  /** The scenarios' names and instructions, shown to the judge beside the pack's SKILL.md; none when absent. */
  scenarioInstructions?: () => Promise<ScenarioInstruction[]>;
  /** Each off-loop scan (static scan, similarity) in its worker thread; past it the pack is rejected. */
  scanTimeLimitMs?: number;
}

export interface PreEvalReport {
  verdict: 'pass' | 'reject';
  reasons: Rejection[];
  scan?: ScanResult;
  nearCopies?: NearCopy[];
  judge?: JudgeVerdict;
  judgeError?: { reason: string; attempts: number; causes: string[] };
  /** Why the judge was not asked although the config enables it (an upstream that cannot judge). */
  judgeSkipped?: string;
}

const evidenceLines = 12;

/** The owner name of runs without a hotkey (`trl eval`). */
export const localOwner = 'local';

export async function runPreEval(input: PreEvalInput, deps: PreEvalDependencies): Promise<PreEvalReport> {
  const reasons: Rejection[] = checkPackFormat(input.pack);
  const report: PreEvalReport = { verdict: 'pass', reasons };
  const done = () => ({ ...report, verdict: reasons.length ? ('reject' as const) : ('pass' as const) });
  if (reasons.length) return done();
  // A Python pack that does not parse would only fail in its sidecar: say so now, file and line.
  if (packKindOf(input.pack) === 'python') reasons.push(...(await checkPythonSyntax(input.pack)));
  if (reasons.length) return done();

  // Ownership comes from chain commitments: a local run (no hotkey) claims nothing and is nobody's
  // earlier submission, so a miner can evaluate a pack at home and then commit it.
  const localRun = input.owner === localOwner;
  const owner = localRun
    ? { hotkey: localOwner, claimedAt: input.claimedAt }
    : await deps.owners.claim(input.packHash, input.owner, input.claimedAt, { supersedable: [localOwner] });
  if (owner.hotkey !== input.owner) {
    reasons.push({
      code: 'pack_hash_owned',
      message: `pack ${input.packHash.slice(0, 12)}… was first committed by ${owner.hotkey} at ${owner.claimedAt}; a pack hash belongs to its first committer`,
    });
    return done();
  }

  // The scans run off the event loop with a time limit: a pack shaped to make them slow is rejected
  // for it, and the worker keeps heartbeating meanwhile.
  const limitMs = deps.scanTimeLimitMs ?? defaultScanTimeLimitMs;
  const timeLimited = (error: unknown): boolean => {
    if (!(error instanceof ScanTimeLimitError)) return false;
    reasons.push({ code: 'preeval_time_limit', message: `${error.message}; a pack must be cheap to check` });
    return true;
  };

  if (deps.config.staticScan.enabled) {
    try {
      report.scan = await runOffLoop(
        {
          task: 'scan',
          input: { pack: input.pack, bundleCode: input.bundleCode },
          fingerprints: await deps.fingerprints(),
          thresholds: deps.config.staticScan.thresholds,
        },
        limitMs,
      );
    } catch (error) {
      if (timeLimited(error)) return done();
      throw error;
    }
    if (report.scan.verdict === 'reject') {
      const lines = report.scan.evidence
        .slice(0, evidenceLines)
        .map(
          (e) =>
            `${e.file}:${e.line} [${e.kind}${e.scenario ? ` ${e.scenario}` : ''}${e.encoding !== 'plain' ? `, ${e.encoding}` : ''}] ${e.excerpt}`,
        );
      reasons.push({
        code: 'scenario_specific_content',
        message: `static scan score ${report.scan.score.toFixed(1)} (limit ${deps.config.staticScan.thresholds.rejectScore}): the pack contains scenario-specific content or forbidden behaviour:\n${lines.join('\n')}`,
      });
      return done();
    }
    // SKILL.md and the pack's other prose, against each scenario one by one (paraphrased hints included).
    const playbook = playbookRejection(input.pack, await deps.fingerprints());
    if (playbook) {
      reasons.push(playbook);
      return done();
    }
  }

  if (deps.config.similarity.enabled) {
    // Earlier *submissions* of other owners: a pack that never got past the structure checks has
    // no owner and is not a submission; one's own packs are not copies; and only packs claimed
    // before this one's first claim count, so an original is never a "copy" of a later copy.
    const others = (await deps.earlierPacks()).filter(
      (p) =>
        p.packHash !== input.packHash &&
        p.owner !== undefined &&
        p.owner !== localOwner &&
        p.owner !== input.owner &&
        p.claimedAt !== undefined &&
        p.claimedAt < owner.claimedAt,
    );
    try {
      report.nearCopies = await runOffLoop(
        {
          task: 'similarity',
          candidate: input.pack,
          others: others.map(({ packHash, pack }) => ({ packHash, pack })),
          threshold: deps.config.similarity.maxDistance,
        },
        limitMs,
      );
    } catch (error) {
      if (timeLimited(error)) return done();
      throw error;
    }
    const closest = report.nearCopies[0];
    if (closest) {
      const why =
        closest.distance <= deps.config.similarity.maxDistance
          ? `normalized compression distance ${closest.distance.toFixed(3)} ≤ ${deps.config.similarity.maxDistance}`
          : closest.containment >= defaultContainmentThreshold
            ? `${Math.round(closest.containment * 100)}% of that pack's code is inside this one`
            : `whatever its loops and names, it holds ${Math.round(closest.anchors * 100)}% of that pack's literals, property names and library calls and ${Math.round(closest.anchorPairs * 100)}% of them in the same order`;
      reasons.push({
        code: 'near_copy',
        message: `the pack is a near copy of pack ${closest.packHash} (${why}; only files reachable from the entry are compared)`,
      });
      return done();
    }
  }

  if (deps.config.judge.enabled && deps.judge.skipped) report.judgeSkipped = deps.judge.skipped;
  else if (deps.config.judge.enabled) {
    try {
      report.judge = await judgePack({
        client: deps.judge.client,
        model: deps.config.judge.model,
        pack: input.pack,
        packHash: input.packHash,
        cache: deps.judge.cache,
        scenarios: (await deps.scenarioInstructions?.()) ?? [],
        maxAttempts: deps.config.judge.maxAttempts,
        timeoutMs: deps.config.judge.timeoutMs,
      });
      if (report.judge.verdict === 'reject') {
        const flags = report.judge.flags.map(
          (f) => `${f.type}${f.file ? ` in ${f.file}` : ''}: ${f.evidence.slice(0, 200)}`,
        );
        reasons.push({
          code: 'judge_flagged',
          message: `the LLM judge (${report.judge.model}) rejected the pack:\n${flags.join('\n') || report.judge.summary}`,
        });
      }
    } catch (error) {
      if (!(error instanceof JudgeUnavailableError)) throw error;
      // Fail closed: no verdict means no evaluation.
      report.judgeError = { reason: error.reason, attempts: error.attempts, causes: error.causes.slice(0, 5) };
      reasons.push({
        code: 'judge_unavailable',
        message: `the LLM judge gave no usable verdict after ${error.attempts} attempts (${error.reason}); the pack was not evaluated — resubmit later`,
      });
    }
  }
  return done();
}
