// ChainClient on a Subtensor node through @polkadot/api. Calls and storage are resolved through
// the runtime's metadata, so one client serves spec 424 (finney) and old runtimes such as
// spec 103, degrading where the old runtime lacks a feature:
// - no Commitments pallet (spec 103): commitments()/setCommitment() throw 'no_commitments_pallet';
// - no NeuronInfoRuntimeApi in metadata: the metagraph is read from storage;
// - no mechanisms: `set_weights` instead of `set_mechanism_weights`;
// - no commit-reveal storage: commit-reveal counts as off.
// Commit-reveal version 4 sends `commit_timelocked_weights` (weights encrypted to a drand quicknet
// round, see timelock-commit.ts); the chain reveals them itself. A runtime that reports version 4
// without that call is refused with 'commit_reveal_v4_unsupported'.
import type { ApiPromise } from '@polkadot/api';
import type { KeyringPair } from '@polkadot/keyring/types';
import type {
  ChainClient,
  CommitmentReceipt,
  CommitmentsRead,
  Metagraph,
  WeightRow,
  WeightSettings,
  WeightsSubmission,
} from '../chain-client.ts';
import { ChainError } from '../chain-error.ts';
import { checkWeightsPreflight } from '../weights-preflight.ts';
import { storageItem, type BlockView } from './chain-view.ts';
import { commitHash, epochIndex, netuidIndex, randomSalt, revealState, revealWindow } from './commit-reveal.ts';
import { submitAndWaitForInclusion, type Inclusion } from './extrinsic-submission.ts';
import { readNeurons } from './neuron-reading.ts';
import { readCommitments } from './commitment-reading.ts';
import { readWeightRows } from './weights-reading.ts';
import { readEpochCounter, revealWindowAfterCommit } from './reveal-window-reading.ts';
import { loadPendingReveals, savePendingReveals, type PendingReveal } from './pending-reveals-store.ts';
import {
  buildCall,
  commitWeightsCall,
  hasCall,
  revealWeightsCall,
  setCommitmentCall,
  setMechanismWeightsCall,
  setWeightsCall,
  type CallBuilders,
  type CallPlan,
} from './subtensor-calls.ts';
import { openApi } from './subtensor-connection.ts';
import { prepareTimelockedCommit } from './timelock-commit-plan.ts';
import { classifySubmissionError } from './transaction-errors.ts';
import { readWeightSettings } from './weight-settings-reading.ts';

export interface SubtensorClientOptions {
  /** ws:// or wss:// URL of a Subtensor node. */
  endpoint: string;
  /** The hotkey that signs commitments and weights; reads need none. */
  signer?: KeyringPair;
  /** Connecting, and each RPC request. */
  timeoutMs?: number;
  /** Waiting for an extrinsic to be included in a block. */
  inclusionTimeoutMs?: number;
  /** JSON file for commit-reveal v2 commits awaiting their reveal; required to commit. */
  pendingRevealsFile?: string;
}

/** What the connected runtime can do, for logs and for choosing code paths. */
export interface RuntimeFeatures {
  specVersion: number;
  commitments: boolean;
  neuronRuntimeApi: boolean;
  mechanismWeights: boolean;
  commitReveal: boolean;
  epochCounter: boolean;
}

/** Refusals that mean the commit can never be revealed: drop it rather than retry forever. */
const revealGoneCodes = new Set([
  'SubtensorModule.ExpiredWeightCommit',
  'SubtensorModule.NoWeightsCommitFound',
  'SubtensorModule.CommitRevealDisabled',
  'Custom(16)',
]);

export async function openSubtensor(options: SubtensorClientOptions): Promise<SubtensorClient> {
  const api = await openApi(options.endpoint, options.timeoutMs ?? 30_000);
  return new SubtensorClient(api, options);
}

/** The all-zero AccountId in SS58 (prefix 42): what an unset account storage value reads as. */
const zeroAccount = '5C4hrfjw9DjXZTzV3MwzrrAr9P1MJhSrvWGWqi1eSuyUpnhM';

export class SubtensorClient implements ChainClient {
  readonly kind = 'subtensor' as const;
  readonly signer?: string;
  readonly #api: ApiPromise;
  readonly #pair?: KeyringPair;
  readonly #inclusionTimeoutMs: number;
  readonly #pendingRevealsFile?: string;
  /** Serialises read-modify-write of the pending reveals file within this process. */
  #fileQueue: Promise<unknown> = Promise.resolve();

  constructor(api: ApiPromise, options: Omit<SubtensorClientOptions, 'endpoint'>) {
    this.#api = api;
    this.#pair = options.signer;
    this.signer = options.signer?.address;
    this.#inclusionTimeoutMs = options.inclusionTimeoutMs ?? 120_000;
    this.#pendingRevealsFile = options.pendingRevealsFile;
  }

  get features(): RuntimeFeatures {
    const tx = this.#api.tx as unknown as CallBuilders<unknown>;
    const subtensorQuery = this.#api.query.subtensorModule ?? {};
    return {
      specVersion: this.#api.runtimeVersion.specVersion.toNumber(),
      commitments: hasCall(tx, 'commitments', 'setCommitment'),
      neuronRuntimeApi: typeof this.#api.call.neuronInfoRuntimeApi?.getNeuronsLite === 'function',
      mechanismWeights: hasCall(tx, 'subtensorModule', 'setMechanismWeights'),
      commitReveal: 'commitRevealWeightsEnabled' in subtensorQuery,
      epochCounter: 'subnetEpochIndex' in subtensorQuery,
    };
  }

  async currentBlock(): Promise<number> {
    return this.#read('the current block', async () => (await this.#api.rpc.chain.getHeader()).number.toNumber());
  }

  async metagraph(netuid: number): Promise<Metagraph> {
    return this.#read(`the metagraph of subnet ${netuid}`, async () => {
      const { view, block } = await this.#snapshot();
      return { netuid, block, neurons: await readNeurons(view, netuid) };
    });
  }

  async subnetOwnerHotkey(netuid: number): Promise<string | undefined> {
    return this.#read(`the owner of subnet ${netuid}`, async () => {
      const { view } = await this.#snapshot();
      const owner = storageItem(view, 'subtensorModule', 'subnetOwnerHotkey');
      if (!owner) return undefined;
      const hotkey = (await owner(netuid)).toString();
      // An unset AccountId reads as the all-zero account.
      return hotkey && hotkey !== zeroAccount ? hotkey : undefined;
    });
  }

  async commitments(netuid: number): Promise<CommitmentsRead> {
    return this.#read(`the commitments of subnet ${netuid}`, async () => {
      const { view, block } = await this.#snapshot();
      const read = await readCommitments(view, netuid);
      if (!read) throw this.#noCommitmentsPallet('bad_data');
      return { block, ...read };
    });
  }

  async weightSettings(netuid: number): Promise<WeightSettings> {
    return this.#read(`the weight settings of subnet ${netuid}`, async () => {
      const { view, block } = await this.#snapshot();
      return readWeightSettings(view, netuid, block);
    });
  }

  async weights(netuid: number): Promise<WeightRow[]> {
    return this.#read(`the weights of subnet ${netuid}`, async () => {
      const { view } = await this.#snapshot();
      return readWeightRows(view, netuid);
    });
  }

  async setCommitment(netuid: number, text: string): Promise<CommitmentReceipt> {
    const plan = setCommitmentCall(netuid, text);
    if (!this.features.commitments) throw this.#noCommitmentsPallet('preflight');
    const inclusion = await this.#send(plan);
    return { block: inclusion.block, transaction: inclusion.transaction, text };
  }

  async setWeights(netuid: number, uids: number[], values: number[]): Promise<WeightsSubmission> {
    const signer = this.#requireSigner();
    const [metagraph, settings] = await Promise.all([this.metagraph(netuid), this.weightSettings(netuid)]);
    checkWeightsPreflight({ signer, metagraph, settings, uids, values });
    const versionKey = settings.weightsVersionKey;
    if (!settings.commitRevealEnabled) {
      const plan = this.features.mechanismWeights
        ? setMechanismWeightsCall(netuid, uids, values, versionKey)
        : setWeightsCall(netuid, uids, values, versionKey);
      const inclusion = await this.#send(plan);
      return { mode: 'direct', block: inclusion.block, uids, values, transaction: inclusion.transaction };
    }
    const version = settings.commitRevealVersion;
    if (version === 4) {
      if (!hasCall(this.#api.tx as unknown as CallBuilders<unknown>, 'subtensorModule', 'commitTimelockedWeights')) {
        throw new ChainError(
          'preflight',
          'commit_reveal_v4_unsupported',
          `subnet ${netuid} uses commit-reveal v4 (drand timelocked weights), but the runtime has no commit_timelocked_weights call to send them with`,
        );
      }
      const prepared = await this.#read(`the timelock schedule of subnet ${netuid}`, async () => {
        const { view, block } = await this.#snapshot();
        return prepareTimelockedCommit({ view, block, signer, netuid, uids, values, settings, nowMs: Date.now() });
      });
      // The chain decrypts and applies the weights in the reveal epoch: nothing to keep.
      const inclusion = await this.#send(prepared.plan);
      return {
        mode: 'timelocked',
        block: inclusion.block,
        uids,
        values,
        transaction: inclusion.transaction,
        revealFromBlock: prepared.revealFromBlock,
      };
    }
    if (version !== undefined && version !== 2) {
      throw new ChainError(
        'preflight',
        `commit_reveal_v${version}_unsupported`,
        `subnet ${netuid} uses commit-reveal version ${version}; this client supports version 2 (hash commit + reveal) only`,
      );
    }
    return this.#commitWeights(signer, netuid, uids, values, settings);
  }

  async revealDueWeights(netuid: number): Promise<WeightsSubmission[]> {
    const file = this.#pendingRevealsFile;
    if (!file || !this.#pair) return [];
    const signer = this.#pair.address;
    return this.#withFile(async () => {
      const all = await loadPendingReveals(file);
      const mine = all.filter((reveal) => reveal.netuid === netuid && reveal.hotkey === signer);
      if (mine.length === 0) return [];
      const keep = all.filter((reveal) => !mine.includes(reveal));
      const { block, settings, counterEpoch } = await this.#read(`the epoch of subnet ${netuid}`, async () => {
        const { view, block } = await this.#snapshot();
        return {
          block,
          settings: await readWeightSettings(view, netuid, block),
          counterEpoch: await readEpochCounter(view, netuid),
        };
      });
      const submissions: WeightsSubmission[] = [];
      let failure: ChainError | undefined;
      for (const reveal of mine) {
        const currentEpoch =
          reveal.epochSource === 'counter' && counterEpoch !== undefined
            ? counterEpoch
            : epochIndex(block, netuid, settings.tempo);
        const state = revealState(currentEpoch, reveal.revealEpoch);
        if (state === 'expired') continue;
        if (state === 'early' || failure) {
          keep.push(reveal);
          continue;
        }
        try {
          const inclusion = await this.#send(
            revealWeightsCall(netuid, reveal.uids, reveal.values, reveal.salt, reveal.versionKey),
          );
          submissions.push({
            mode: 'reveal',
            block: inclusion.block,
            uids: reveal.uids,
            values: reveal.values,
            transaction: inclusion.transaction,
          });
        } catch (error) {
          const chainError = classifySubmissionError(error);
          if (revealGoneCodes.has(chainError.code)) continue;
          keep.push(reveal);
          failure = chainError;
        }
      }
      await savePendingReveals(file, keep);
      // Revealed entries are already off the file, so a caller's retry never reveals twice.
      if (failure && submissions.length === 0) throw failure;
      return submissions;
    });
  }

  async close(): Promise<void> {
    await this.#api.disconnect();
  }

  async #commitWeights(
    signer: string,
    netuid: number,
    uids: number[],
    values: number[],
    settings: WeightSettings,
  ): Promise<WeightsSubmission> {
    const file = this.#pendingRevealsFile;
    if (!file) {
      throw new ChainError(
        'preflight',
        'no_pending_reveals_file',
        `subnet ${netuid} has commit-reveal on; open the client with pendingRevealsFile so the commit can be revealed later`,
      );
    }
    const salt = randomSalt();
    const versionKey = settings.weightsVersionKey;
    const hash = commitHash({ hotkey: signer, netuidIndex: netuidIndex(netuid), uids, values, salt, versionKey });
    const counterBefore = await this.#read(`the epoch of subnet ${netuid}`, async () =>
      readEpochCounter((await this.#snapshot()).view, netuid),
    );
    const inclusion = await this.#send(commitWeightsCall(netuid, hash));
    const { tempo, revealPeriodEpochs } = settings;
    // The commit is on chain now: whatever happens, its salt must reach the file. If reading the
    // exact epoch fails, the counter read just before sending is the estimate.
    const { window, epochSource } = await this.#api
      .at(inclusion.blockHash)
      .then((view) => revealWindowAfterCommit(view, signer, netuid, hash, inclusion, settings))
      .catch(() =>
        counterBefore !== undefined
          ? { window: revealWindow(counterBefore, netuid, tempo, revealPeriodEpochs), epochSource: 'counter' as const }
          : {
              window: revealWindow(epochIndex(inclusion.block, netuid, tempo), netuid, tempo, revealPeriodEpochs),
              epochSource: 'tempo' as const,
            },
      );
    const pending: PendingReveal = {
      netuid,
      hotkey: signer,
      uids,
      values,
      salt,
      versionKey,
      commitHash: hash,
      commitBlock: inclusion.block,
      ...window,
      epochSource,
      transaction: inclusion.transaction,
    };
    await this.#withFile(async () => savePendingReveals(file, [...(await loadPendingReveals(file)), pending]));
    return {
      mode: 'commit',
      block: inclusion.block,
      uids,
      values,
      transaction: inclusion.transaction,
      revealFromBlock: window.revealFromBlock,
    };
  }

  async #send(plan: CallPlan): Promise<Inclusion> {
    const pair = this.#pair;
    if (!pair) this.#requireSigner();
    const extrinsic = buildCall(this.#api.tx as unknown as CallBuilders<ReturnType<ApiPromise['tx']>>, plan);
    return submitAndWaitForInclusion(this.#api, pair!, extrinsic, this.#inclusionTimeoutMs);
  }

  #requireSigner(): string {
    if (!this.#pair)
      throw new ChainError(
        'preflight',
        'no_signer',
        'this client was opened without a signing key; load the hotkey (TRL_CHAIN_HOTKEY_URI or TRL_CHAIN_HOTKEY_FILE) to send extrinsics',
      );
    return this.#pair.address;
  }

  #noCommitmentsPallet(kind: 'bad_data' | 'preflight'): ChainError {
    return new ChainError(
      kind,
      'no_commitments_pallet',
      `the runtime (spec ${this.#api.runtimeVersion.specVersion.toNumber()}) has no Commitments pallet; pack commitments need a runtime with it (finney has it)`,
    );
  }

  async #snapshot(): Promise<{ view: BlockView; block: number }> {
    const header = await this.#api.rpc.chain.getHeader();
    return { view: await this.#api.at(header.hash), block: header.number.toNumber() };
  }

  async #read<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ChainError) throw error;
      const classified = classifySubmissionError(error);
      if (classified.kind === 'connection')
        throw new ChainError('connection', classified.code, `reading ${what} failed: ${(error as Error).message}`, {
          retryable: true,
          cause: error,
        });
      throw new ChainError('bad_data', 'read_failed', `reading ${what} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  #withFile<T>(run: () => Promise<T>): Promise<T> {
    const next = this.#fileQueue.then(run, run);
    this.#fileQueue = next.catch(() => undefined);
    return next;
  }
}
