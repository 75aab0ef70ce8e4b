// The embedded default chain: a file with the storage Subtensor keeps for one subnet (neurons with
// stake and permits, commitments, weights), blocks that advance with wall-clock time, and the same
// preflight rules. It lets the whole cycle (commit → challenge → seat → weights) run offline.
import { randomUUID } from 'node:crypto';
import { ChainError } from '../chain-error.ts';
import type {
  ChainClient,
  CommitmentReceipt,
  CommitmentsRead,
  Metagraph,
  WeightRow,
  WeightSettings,
  WeightsSubmission,
} from '../chain-client.ts';
import { displayRaw, parsePackCommitment } from '../pack-commitment.ts';
import { checkWeightsPreflight } from '../weights-preflight.ts';
import { StateFile } from './state-file.ts';
import { localChainStateSchema, newSubnet, type LocalChainState, type LocalSubnet } from './local-chain-state.ts';
import { loadPendingReveals, savePendingReveals, type PendingReveal } from '../subtensor/pending-reveals-store.ts';

/** Field 0 is a `Data::Raw` of at most 128 bytes on Subtensor; the local chain keeps the same bound. */
const maxCommitmentBytes = 128;
const maxNeurons = 256;
/** Subtensor keeps at most this many unrevealed commits per hotkey. */
const maxOpenCommits = 10;

export interface LocalChainOptions {
  file: string;
  /** ss58 address that signs writes (a validator for weights, a miner for commitments). */
  signer?: string;
  /** Only used when the file is created. */
  blockMs?: number;
  /** The signer's commit-reveal secrets (salts, weights); `<file>.pending-reveals.json` by default. */
  pendingRevealsFile?: string;
  now?: () => number;
}

export class LocalChain implements ChainClient {
  readonly kind = 'local' as const;
  readonly signer?: string;
  private readonly state: StateFile<LocalChainState>;
  private readonly now: () => number;
  private readonly pendingRevealsFile: string;

  constructor(options: LocalChainOptions) {
    this.signer = options.signer;
    this.pendingRevealsFile = options.pendingRevealsFile ?? `${options.file}.pending-reveals.json`;
    this.now = options.now ?? Date.now;
    const blockMs = options.blockMs ?? 12_000;
    this.state = new StateFile(
      options.file,
      (value) => localChainStateSchema.parse(value),
      () => ({
        version: 1,
        genesisMs: this.now(),
        blockMs,
        subnets: {},
        transactions: 0,
      }),
    );
  }

  get file(): string {
    return this.state.file;
  }

  /** A copy of this client that signs with another key (same file). */
  as(signer: string): LocalChain {
    return new LocalChain({
      file: this.state.file,
      signer,
      now: this.now,
      pendingRevealsFile: this.pendingRevealsFile,
    });
  }

  private blockOf(state: LocalChainState): number {
    return Math.max(0, Math.floor((this.now() - state.genesisMs) / state.blockMs));
  }

  private subnetOf(state: LocalChainState, netuid: number): LocalSubnet {
    const subnet = state.subnets[String(netuid)];
    if (!subnet)
      throw new ChainError(
        'preflight',
        'subnet_not_found',
        `subnet ${netuid} does not exist on the local chain ${this.state.file}; \`trl up\` creates it`,
      );
    return subnet;
  }

  private requireSigner(): string {
    if (!this.signer)
      throw new ChainError(
        'preflight',
        'no_signer',
        'this chain client has no signing key; set TRL_CHAIN_HOTKEY_URI or TRL_CHAIN_HOTKEY_FILE',
      );
    return this.signer;
  }

  async currentBlock(): Promise<number> {
    return this.blockOf(await this.state.read());
  }

  /** Creates the subnet if it is missing (its hyperparameters are taken from `overrides` only then). */
  async ensureSubnet(netuid: number, overrides: Partial<LocalSubnet> = {}): Promise<void> {
    await this.state.update((state) => {
      state.subnets[String(netuid)] ??= newSubnet(overrides);
    });
  }

  /** Local stand-in for burned registration (and staking): returns the hotkey's uid. */
  async register(
    netuid: number,
    neuron: { hotkey: string; stakeTao?: number; validatorPermit?: boolean; coldkey?: string },
  ): Promise<number> {
    return this.state.update((state) => {
      const subnet = this.subnetOf(state, netuid);
      const existing = subnet.neurons.find((n) => n.hotkey === neuron.hotkey);
      if (existing) {
        if (neuron.stakeTao !== undefined) existing.stakeTao = neuron.stakeTao;
        if (neuron.validatorPermit !== undefined) existing.validatorPermit = neuron.validatorPermit;
        return existing.uid;
      }
      if (subnet.neurons.length >= maxNeurons)
        throw new ChainError(
          'dispatch',
          'SubtensorModule.TooManyRegistrationsThisBlock',
          `subnet ${netuid} is full (${maxNeurons} neurons)`,
        );
      const uid = subnet.neurons.length;
      subnet.neurons.push({
        uid,
        hotkey: neuron.hotkey,
        coldkey: neuron.coldkey,
        stakeTao: neuron.stakeTao ?? 0,
        validatorPermit: neuron.validatorPermit ?? false,
        lastUpdate: 0,
        registeredAt: this.blockOf(state),
      });
      state.transactions += 1;
      return uid;
    });
  }

  async metagraph(netuid: number): Promise<Metagraph> {
    const state = await this.state.read();
    const subnet = this.subnetOf(state, netuid);
    return {
      netuid,
      block: this.blockOf(state),
      neurons: subnet.neurons.map(({ registeredAt: _registeredAt, ...neuron }) => ({ ...neuron, active: true })),
    };
  }

  async commitments(netuid: number): Promise<CommitmentsRead> {
    const state = await this.state.read();
    const subnet = this.subnetOf(state, netuid);
    const read: CommitmentsRead = { block: this.blockOf(state), commitments: [], skipped: [] };
    for (const [hotkey, { text, block }] of Object.entries(subnet.commitments)) {
      const parsed = parsePackCommitment(text);
      if (parsed.ok) read.commitments.push({ hotkey, packHash: parsed.packHash, url: parsed.url, block });
      else read.skipped.push({ hotkey, block, reason: parsed.reason, raw: displayRaw(text) });
    }
    return read;
  }

  async weightSettings(netuid: number): Promise<WeightSettings> {
    const state = await this.state.read();
    const {
      neurons: _n,
      commitments: _c,
      weights: _w,
      weightCommits: _wc,
      ownerHotkey: _o,
      ...settings
    } = this.subnetOf(state, netuid);
    return {
      block: this.blockOf(state),
      ...settings,
      commitRevealVersion: settings.commitRevealEnabled ? 2 : undefined,
    };
  }

  async subnetOwnerHotkey(netuid: number): Promise<string | undefined> {
    const state = await this.state.read();
    return this.subnetOf(state, netuid).ownerHotkey;
  }

  /** Local only: names the subnet owner's hotkey (on Subtensor the subnet's registrant). */
  async setSubnetOwner(netuid: number, hotkey: string): Promise<void> {
    await this.state.update((state) => {
      this.subnetOf(state, netuid).ownerHotkey = hotkey;
    });
  }

  async weights(netuid: number): Promise<WeightRow[]> {
    const state = await this.state.read();
    const subnet = this.subnetOf(state, netuid);
    return Object.entries(subnet.weights).map(([uid, weights]) => ({
      validatorUid: Number(uid),
      validatorHotkey: subnet.neurons.find((n) => n.uid === Number(uid))?.hotkey ?? '',
      weights,
    }));
  }

  async setCommitment(netuid: number, text: string): Promise<CommitmentReceipt> {
    const signer = this.requireSigner();
    if (Buffer.byteLength(text) > maxCommitmentBytes) {
      throw new ChainError(
        'preflight',
        'commitment_too_long',
        `a commitment field holds at most ${maxCommitmentBytes} bytes; this one has ${Buffer.byteLength(text)} (use a shorter URL)`,
      );
    }
    return this.state.update((state) => {
      const subnet = this.subnetOf(state, netuid);
      if (!subnet.neurons.some((n) => n.hotkey === signer)) {
        throw new ChainError(
          'dispatch',
          'Commitments.AccountNotAllowedCommit',
          `hotkey ${signer} is not registered on subnet ${netuid}`,
        );
      }
      const block = this.blockOf(state);
      subnet.commitments[signer] = { text, block };
      state.transactions += 1;
      return { block, transaction: `local-${randomUUID()}`, text };
    });
  }

  async setWeights(netuid: number, uids: number[], values: number[]): Promise<WeightsSubmission> {
    const signer = this.requireSigner();
    // Loaded when weights are set: its hashing library costs every process that opens a chain half a second of CPU.
    const { commitHash, epochIndex, netuidIndex, randomSalt, revealWindow } = await import(
      '../subtensor/commit-reveal.ts'
    );
    const pending: PendingReveal[] = [];
    return this.state
      .update((state) => {
        const subnet = this.subnetOf(state, netuid);
        const block = this.blockOf(state);
        const { neurons, commitments: _c, weights: _w, weightCommits: _wc, ...settings } = subnet;
        const self = checkWeightsPreflight({
          signer,
          metagraph: { netuid, block, neurons: neurons.map((n) => ({ ...n, active: true })) },
          settings: { block, ...settings },
          uids,
          values,
        });
        neurons.find((n) => n.uid === self.uid)!.lastUpdate = block;
        state.transactions += 1;
        const transaction = `local-${randomUUID()}`;
        if (!subnet.commitRevealEnabled) {
          subnet.weights[String(self.uid)] = uids.map((uid, i) => ({ uid, value: values[i]! }));
          return { mode: 'direct' as const, block, uids, values, transaction };
        }
        // Commit-reveal v2, as Subtensor does it: only the hash goes on chain now; the weights, the
        // salt and the version key stay with the validator until the reveal epoch.
        const commits = (subnet.weightCommits[signer] ??= []);
        if (commits.length >= maxOpenCommits)
          throw new ChainError(
            'dispatch',
            'SubtensorModule.TooManyUnrevealedCommits',
            `hotkey ${signer} already has ${maxOpenCommits} unrevealed commits`,
          );
        const salt = randomSalt();
        const versionKey = subnet.weightsVersionKey;
        const hash = commitHash({ hotkey: signer, netuidIndex: netuidIndex(netuid), uids, values, salt, versionKey });
        const commitEpoch = epochIndex(block, netuid, subnet.tempo);
        const window = revealWindow(commitEpoch, netuid, subnet.tempo, subnet.revealPeriodEpochs);
        commits.push({ hash, commitBlock: block, commitEpoch });
        pending.push({
          netuid,
          hotkey: signer,
          uids,
          values,
          salt,
          versionKey,
          commitHash: hash,
          commitBlock: block,
          ...window,
          epochSource: 'tempo',
          transaction,
        });
        return { mode: 'commit' as const, block, uids, values, transaction, revealFromBlock: window.revealFromBlock };
      })
      .then(async (submission) => {
        if (submission.mode === 'commit')
          await savePendingReveals(this.pendingRevealsFile, [
            ...(await loadPendingReveals(this.pendingRevealsFile)),
            ...pending,
          ]);
        return submission;
      });
  }

  /** Reveals this signer's commits whose epoch has come; drops the ones that expired unrevealed. */
  async revealDueWeights(netuid: number): Promise<WeightsSubmission[]> {
    const signer = this.requireSigner();
    const { commitHash, epochIndex, netuidIndex, revealState } = await import('../subtensor/commit-reveal.ts');
    const all = await loadPendingReveals(this.pendingRevealsFile);
    const mine = all.filter((r) => r.netuid === netuid && r.hotkey === signer);
    if (mine.length === 0) return [];
    const { revealed, kept } = await this.state.update((state) => {
      const subnet = this.subnetOf(state, netuid);
      const block = this.blockOf(state);
      const currentEpoch = epochIndex(block, netuid, subnet.tempo);
      const commits = subnet.weightCommits[signer] ?? [];
      const revealed: WeightsSubmission[] = [];
      const kept: PendingReveal[] = [];
      for (const reveal of mine) {
        const when = revealState(currentEpoch, reveal.revealEpoch);
        if (when === 'early') {
          kept.push(reveal);
          continue;
        }
        const index = commits.findIndex((c) => c.hash === reveal.commitHash);
        if (index >= 0) commits.splice(index, 1);
        if (when === 'expired' || index < 0) continue;
        // The runtime recomputes the hash from what is revealed; a wrong salt or vector fails.
        const recomputed = commitHash({
          hotkey: signer,
          netuidIndex: netuidIndex(netuid),
          uids: reveal.uids,
          values: reveal.values,
          salt: reveal.salt,
          versionKey: reveal.versionKey,
        });
        if (recomputed !== reveal.commitHash)
          throw new ChainError(
            'dispatch',
            'SubtensorModule.InvalidRevealCommitHashNotMatch',
            'the revealed weights do not match the committed hash',
          );
        const self = subnet.neurons.find((n) => n.hotkey === signer);
        if (!self) continue;
        subnet.weights[String(self.uid)] = reveal.uids.map((uid, i) => ({ uid, value: reveal.values[i]! }));
        self.lastUpdate = block;
        state.transactions += 1;
        revealed.push({
          mode: 'reveal',
          block,
          uids: reveal.uids,
          values: reveal.values,
          transaction: `local-${randomUUID()}`,
        });
      }
      return { revealed, kept };
    });
    const others = all.filter((r) => !(r.netuid === netuid && r.hotkey === signer));
    await savePendingReveals(this.pendingRevealsFile, [...others, ...kept]);
    return revealed;
  }

  async close(): Promise<void> {}
}
