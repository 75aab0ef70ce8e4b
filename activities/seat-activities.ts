// Side effects of the seat and its cycle: decision records on disk, commitments read from the
// chain, challenges offered to the seat workflow, weights set for the seated winner.
import { ApplicationFailure } from '@temporalio/activity';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { readFile } from 'node:fs/promises';
import { evaluationResultFile, seatDecisionFile } from '../common/data-layout.ts';
import { specManifestSchema, type DecisionParameters } from '../contracts/spec-manifest.ts';
import { specManifestHash, withDecision } from '../catalog/spec-manifest.ts';
import { seatWorkflowId } from '../contracts/temporal-names.ts';
import { chainFailureType, failureTypes } from '../contracts/failure-types.ts';
import { writeArtifact } from '../common/write-artifact.ts';
import {
  newSeatState,
  type Challenge,
  type ChallengeOffer,
  type Decision,
  type Incumbent,
  type ScoredEvaluation,
  type SeatConfig,
  type SeatRecord,
} from '../contracts/seat.ts';
import type { ChainClient, SkippedCommitment } from '../chain/chain-client.ts';
import { ChainError } from '../chain/chain-error.ts';
import { maxWeight } from '../chain/chain-client.ts';
import { challengeUpdate, configureUpdate, seatQuery } from '../contracts/seat-signals.ts';
import { canonicalJson } from '../packs/canonical-pack.ts';
import { log } from '../common/log.ts';
import type { FallbackNote, WeightsOutcome } from '../contracts/weights-outcome.ts';

export interface SeatActivityDependencies {
  /** The chain, opened once by the worker and shared. */
  chain: () => Promise<ChainClient>;
  temporal: { client: Client; taskQueue: string };
  /** TRL_FALLBACK_UID: the uid weights go to when there is no seated winner to weight. */
  fallbackUid?: number;
}

export interface ChallengersRead {
  block: number;
  challenges: Challenge[];
  skipped: SkippedCommitment[];
}

export type { FallbackNote, WeightsOutcome } from '../contracts/weights-outcome.ts';

/**
 * Refusals a retry cannot fix, and the rate limit (the next cycle comes anyway), are outcomes the
 * cycle records; anything else is a failure Temporal retries.
 */
function asOutcome(error: unknown, revealed: number): WeightsOutcome {
  if (error instanceof ChainError && (!error.retryable || error.code === 'rate_limited')) {
    return { status: 'skipped', code: error.code, reason: error.message, retryAtBlock: error.retryAtBlock, revealed };
  }
  chainFailure(error);
}

function chainFailure(error: unknown): never {
  if (error instanceof ChainError)
    throw ApplicationFailure.create({
      type: chainFailureType(error.kind),
      message: `${error.code}: ${error.message}`,
      nonRetryable: !error.retryable,
    });
  throw error;
}

/**
 * The decision's spec manifest: its first evaluation's (every pairing runs the same contest) with the
 * seat's decision parameters. None when no evaluation recorded one (rejected before any scenario ran).
 */
async function decisionManifest(evaluations: ScoredEvaluation[], parameters: DecisionParameters) {
  for (const evaluation of evaluations) {
    let text: string;
    try {
      text = await readFile(evaluationResultFile(evaluation.workflowId), 'utf8');
    } catch {
      continue; // an incomplete child may have written no result
    }
    const parsed = specManifestSchema.safeParse((JSON.parse(text) as { specManifest?: unknown }).specManifest);
    if (!parsed.success) continue;
    const manifest = withDecision(parsed.data, parameters);
    return { manifest, hash: specManifestHash(manifest) };
  }
  return undefined;
}

export function createSeatActivities(configured?: SeatActivityDependencies) {
  // A worker started without a chain (some tests) still records decisions; chain work says why not.
  const need = (): SeatActivityDependencies => {
    if (!configured)
      throw ApplicationFailure.create({
        type: failureTypes.seatNotConfigured,
        message: 'this worker has no chain and no Temporal client for the seat; start it with trl up',
        nonRetryable: true,
      });
    return configured;
  };
  async function recordSeatDecision(input: {
    netuid: number;
    record: SeatRecord;
    challenge: Challenge;
    decision: Decision | null;
    evaluations: ScoredEvaluation[];
    parameters?: DecisionParameters;
  }) {
    const file = seatDecisionFile(input.netuid, input.record.number, input.challenge.packHash);
    const manifest = input.parameters ? await decisionManifest(input.evaluations, input.parameters) : undefined;
    const ref = await writeArtifact(
      file,
      JSON.stringify(
        { ...input, ...(manifest ? { manifestHash: manifest.hash, specManifest: manifest.manifest } : {}) },
        null,
        2,
      ) + '\n',
    );
    return { path: ref.path, sha256: ref.sha256, ...(manifest ? { manifestHash: manifest.hash } : {}) };
  }

  /** Valid commitments of registered hotkeys; a hash belongs to its first committer. */
  async function readChallengers(input: { netuid: number }): Promise<ChallengersRead> {
    try {
      const chain = await need().chain();
      const [read, metagraph] = await Promise.all([chain.commitments(input.netuid), chain.metagraph(input.netuid)]);
      const registered = new Set(metagraph.neurons.map((n) => n.hotkey));
      const skipped = [...read.skipped];
      const firstByHash = new Map<string, Challenge>();
      // Same block: the lower hotkey wins, so every validator picks the same owner.
      const ordered = [...read.commitments].sort((a, b) => a.block - b.block || a.hotkey.localeCompare(b.hotkey));
      for (const c of ordered) {
        if (!registered.has(c.hotkey)) {
          skipped.push({
            hotkey: c.hotkey,
            block: c.block,
            reason: 'the hotkey is no longer registered on the subnet',
            raw: `${c.packHash}|${c.url}`,
          });
          continue;
        }
        const owner = firstByHash.get(c.packHash);
        if (owner) {
          skipped.push({
            hotkey: c.hotkey,
            block: c.block,
            reason: `pack ${c.packHash.slice(0, 12)} was committed first by ${owner.hotkey} at block ${owner.commitBlock}`,
            raw: `${c.packHash}|${c.url}`,
          });
          continue;
        }
        firstByHash.set(c.packHash, { packHash: c.packHash, url: c.url, hotkey: c.hotkey, commitBlock: c.block });
      }
      for (const s of skipped) log.info('commitment_skipped', { hotkey: s.hotkey, block: s.block, reason: s.reason });
      return { block: read.block, challenges: [...firstByHash.values()], skipped };
    } catch (error) {
      chainFailure(error);
    }
  }

  /** Starts the seat workflow if it is not running, offers the challenges, returns the incumbent. */
  async function offerChallenges(input: {
    seat: SeatConfig;
    challenges: Challenge[];
  }): Promise<{ offers: ChallengeOffer[]; incumbent: Incumbent | null }> {
    const { client, taskQueue } = need().temporal;
    const workflowId = seatWorkflowId(input.seat.netuid);
    const offers = await client.workflow.executeUpdateWithStart(challengeUpdate, {
      args: [input.challenges],
      startWorkflowOperation: new WithStartWorkflowOperation('seat', {
        workflowId,
        taskQueue,
        args: [newSeatState(input.seat)],
        workflowIdConflictPolicy: 'USE_EXISTING',
        staticSummary: `seat · subnet ${input.seat.netuid} · ${input.seat.agent} · ${input.seat.repeats} repeat${input.seat.repeats === 1 ? '' : 's'} per side`,
      }),
    });
    for (const refused of offers.filter((o) => o.code))
      log.info('challenge_refused', {
        hotkey: refused.hotkey,
        packHash: refused.packHash,
        code: refused.code,
        reason: refused.reason,
      });
    const handle = client.workflow.getHandle(workflowId);
    const view = await handle.query(seatQuery);
    // The validator's settings (TRL_SEAT_*) may have changed since the seat started.
    const wanted = canonicalJson(input.seat);
    if (canonicalJson(view.pendingConfig ?? view.config) !== wanted) {
      await handle.executeUpdate(configureUpdate, { args: [input.seat] });
      log.info('seat_reconfigured', { netuid: input.seat.netuid });
    }
    return { offers, incumbent: view.incumbent };
  }

  /** Winner-take-all weights for the seated hotkey, after sending any reveal that is due. */
  async function setSeatWeights(input: { netuid: number; hotkey: string }): Promise<WeightsOutcome> {
    let revealed = 0;
    try {
      const chain = await need().chain();
      revealed = (await chain.revealDueWeights(input.netuid)).length;
      const neuron = (await chain.metagraph(input.netuid)).neurons.find((n) => n.hotkey === input.hotkey);
      if (!neuron)
        return {
          status: 'skipped',
          code: 'winner_not_registered',
          reason: `the seated hotkey ${input.hotkey} is not registered on subnet ${input.netuid}`,
          revealed,
        };
      const sent = await chain.setWeights(input.netuid, [neuron.uid], [maxWeight]);
      log.info('weights_set', { netuid: input.netuid, uid: neuron.uid, block: sent.block, mode: sent.mode });
      return {
        status: 'set',
        block: sent.block,
        uid: neuron.uid,
        hotkey: input.hotkey,
        mode: sent.mode,
        transaction: sent.transaction,
        revealed,
      };
    } catch (error) {
      return asOutcome(error, revealed);
    }
  }

  /**
   * All weight to the fallback uid — TRL_FALLBACK_UID, else the subnet owner's uid, else 0 — so the
   * validator's weights never go stale while the seat is empty or its winner cannot be weighted.
   */
  async function setFallbackWeights(input: { netuid: number; code: string; reason: string }): Promise<WeightsOutcome> {
    let revealed = 0;
    try {
      const deps = need();
      const chain = await deps.chain();
      revealed = (await chain.revealDueWeights(input.netuid)).length;
      const { neurons } = await chain.metagraph(input.netuid);
      let uid = 0;
      let uidSource: FallbackNote['uidSource'] = 'uid_0';
      if (deps.fallbackUid !== undefined) {
        uid = deps.fallbackUid;
        uidSource = 'configured';
      } else {
        const owner = await chain.subnetOwnerHotkey(input.netuid).catch(() => undefined);
        const ownerUid = owner === undefined ? undefined : neurons.find((n) => n.hotkey === owner)?.uid;
        if (ownerUid !== undefined) {
          uid = ownerUid;
          uidSource = 'subnet_owner';
        }
      }
      const hotkey = neurons.find((n) => n.uid === uid)?.hotkey ?? '';
      const sent = await chain.setWeights(input.netuid, [uid], [maxWeight]);
      const fallback: FallbackNote = { code: input.code, reason: input.reason, uidSource };
      log.warn('fallback_weights_set', {
        netuid: input.netuid,
        uid,
        uidSource,
        block: sent.block,
        mode: sent.mode,
        because: input.code,
        reason: input.reason,
      });
      return {
        status: 'set',
        block: sent.block,
        uid,
        hotkey,
        mode: sent.mode,
        transaction: sent.transaction,
        revealed,
        fallback,
      };
    } catch (error) {
      return asOutcome(error, revealed);
    }
  }

  return { recordSeatDecision, readChallengers, offerChallenges, setSeatWeights, setFallbackWeights };
}
