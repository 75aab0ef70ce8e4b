// The calls this client sends, as data (`section.method(args)`): the client turns a plan into a
// signed extrinsic through `api.tx`, the offline tests into call bytes through the metadata, so
// both go through the same argument building.
import { commitmentInfo } from './commitment-fields.ts';

export interface CallPlan {
  section: string;
  method: string;
  args: unknown[];
}

/** Anything indexed like `api.tx` or `expandMetadata(...).tx`: section → method → builder. */
export type CallBuilders<T> = Record<string, Record<string, ((...args: unknown[]) => T) | undefined> | undefined>;

export function hasCall(builders: CallBuilders<unknown>, section: string, method: string): boolean {
  return typeof builders[section]?.[method] === 'function';
}

export function buildCall<T>(builders: CallBuilders<T>, plan: CallPlan): T {
  const builder = builders[plan.section]?.[plan.method];
  if (!builder) throw new Error(`the runtime has no call ${plan.section}.${plan.method}`);
  return builder(...plan.args);
}

/** Main mechanism (mecid 0); runtimes with mechanisms (spec 424) route `set_weights` here anyway. */
export function setMechanismWeightsCall(
  netuid: number,
  uids: number[],
  values: number[],
  versionKey: number,
): CallPlan {
  return { section: 'subtensorModule', method: 'setMechanismWeights', args: [netuid, 0, uids, values, versionKey] };
}

/** Runtimes without mechanisms (spec 103). */
export function setWeightsCall(netuid: number, uids: number[], values: number[], versionKey: number): CallPlan {
  return { section: 'subtensorModule', method: 'setWeights', args: [netuid, uids, values, versionKey] };
}

export function commitWeightsCall(netuid: number, commitHash: string): CallPlan {
  return { section: 'subtensorModule', method: 'commitWeights', args: [netuid, commitHash] };
}

export function revealWeightsCall(
  netuid: number,
  uids: number[],
  values: number[],
  salt: number[],
  versionKey: number,
): CallPlan {
  return { section: 'subtensorModule', method: 'revealWeights', args: [netuid, uids, values, salt, versionKey] };
}

/** Refuses text over 128 bytes before anything is signed (ChainError 'preflight'). */
export function setCommitmentCall(netuid: number, text: string): CallPlan {
  return { section: 'commitments', method: 'setCommitment', args: [netuid, commitmentInfo(text)] };
}
