// Turns what the node says about a refused extrinsic into a ChainError, where it happens:
// pool refusals (RPC 1010–1016, before inclusion) and dispatch errors (after inclusion).
import type { Registry } from '@polkadot/types/types';
import type { DispatchError } from '@polkadot/types/interfaces';
import { ChainError } from '../chain-error.ts';

/**
 * Subtensor's `InvalidTransaction::Custom(N)` codes, as spec 424 defines them: enum
 * `CustomTransactionError` and its `From<CustomTransactionError> for u8` in
 * opentensor/subtensor `common/src/transaction_error.rs` at commit 536c8938d (the commit that
 * set `spec_version: 424`). The metadata does not carry these names. Later runtimes only append
 * codes after 27; earlier ones (before the shielded-transaction extension) had fewer.
 */
export const subtensorCustomErrors: Readonly<Record<number, string>> = {
  0: 'ColdkeyInSwapSchedule',
  1: 'StakeAmountTooLow',
  2: 'BalanceTooLow',
  3: 'SubnetNotExists',
  4: 'HotkeyAccountDoesntExist',
  5: 'NotEnoughStakeToWithdraw',
  6: 'RateLimitExceeded',
  7: 'InsufficientLiquidity',
  8: 'SlippageTooHigh',
  9: 'TransferDisallowed',
  10: 'HotKeyNotRegisteredInNetwork',
  11: 'InvalidIpAddress',
  12: 'ServingRateLimitExceeded',
  13: 'InvalidPort',
  14: 'ZeroMaxAmount',
  15: 'InvalidRevealRound',
  16: 'CommitNotFound',
  17: 'CommitBlockNotInRevealRange',
  18: 'InputLengthsUnequal',
  19: 'UidNotFound',
  20: 'EvmKeyAssociateRateLimitExceeded',
  21: 'ColdkeySwapDisputed',
  22: 'InvalidRealAccount',
  23: 'FailedShieldedTxParsing',
  24: 'InvalidShieldedTxPubKeyHash',
  25: 'NonAssociatedColdKey',
  26: 'DelegateTakeTooLow',
  27: 'DelegateTakeTooHigh',
  255: 'BadRequest',
};

/**
 * Custom codes where waiting helps: the rate limits (6 covers SettingWeightsTooFast and
 * CommittingWeightsTooFast), and 17, a reveal sent before its epoch (RevealTooEarly).
 */
const retryableCustomCodes = new Set([6, 12, 17, 20]);

/** Dispatch errors where waiting helps: the call was right, only early. */
const retryableDispatchErrors = new Set([
  'SubtensorModule.SettingWeightsTooFast',
  'SubtensorModule.CommittingWeightsTooFast',
  'SubtensorModule.RevealTooEarly',
  'SubtensorModule.TxRateLimitExceeded',
  'SubtensorModule.ServingRateLimitExceeded',
  'SubtensorModule.NetworkTxRateLimitExceeded',
]);

/** A pool refusal, matched on the node's words (`1010: Invalid Transaction: Stale`) or chopsticks' JSON
 * (`{"invalid":{"stale":null}}`). */
const invalidTransactionReasons: Array<{ pattern: RegExp; code: string; retryable: boolean; advice: string }> = [
  {
    pattern: /outdated|stale/i,
    code: 'Stale',
    retryable: true,
    advice: 'the nonce was already used; sign again with a fresh nonce',
  },
  {
    pattern: /valid in the future|future/i,
    code: 'Future',
    retryable: true,
    advice: 'the nonce is ahead of the account; wait for earlier transactions or re-sign',
  },
  {
    pattern: /bad signature|badproof/i,
    code: 'BadProof',
    retryable: false,
    advice: 'the signature does not verify (wrong key, genesis or spec version)',
  },
  {
    pattern: /pay some fees|payment/i,
    code: 'Payment',
    retryable: false,
    advice: 'the account cannot pay the fee; fund the coldkey/hotkey',
  },
  {
    pattern: /ancient birth block|ancientbirthblock/i,
    code: 'AncientBirthBlock',
    retryable: true,
    advice: 'the mortal era expired; sign again',
  },
  {
    pattern: /exhaust|exhaustsresources/i,
    code: 'ExhaustsResources',
    retryable: true,
    advice: 'the block is full; try again in a later block',
  },
  {
    pattern: /call is not expected|"call"/i,
    code: 'Call',
    retryable: false,
    advice: 'the runtime does not accept this call here',
  },
  {
    pattern: /mandatory/i,
    code: 'BadMandatory',
    retryable: false,
    advice: 'the runtime refused the call as mandatory-only',
  },
];

const connectionPatterns =
  /not connected|disconnected|abnormal closure|socket|ECONNREFUSED|ECONNRESET|No response received/i;

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : JSON.stringify(error);
}

/** Classifies an error thrown while sending (the promise of `signAndSend` or an RPC call). */
export function classifySubmissionError(error: unknown): ChainError {
  if (error instanceof ChainError) return error;
  const message = messageOf(error);
  const rpcCode = Number(/^\s*(\d{4})\s*:/.exec(message)?.[1] ?? Number.NaN);
  const refuse = (code: string, explanation: string, retryable: boolean) =>
    new ChainError(
      'invalid_transaction',
      code,
      `the transaction pool refused the extrinsic (${code}): ${explanation}. Node said: ${message}`,
      { retryable, cause: error },
    );

  if (rpcCode === 1010 || /invalid transaction|"invalid"/i.test(message)) {
    const custom = /custom(?: error)?["\s:]*\(?\s*(\d+)/i.exec(message);
    if (custom) {
      const number = Number(custom[1]);
      const name = subtensorCustomErrors[number];
      const explanation = name
        ? `Subtensor custom error ${number} = ${name} (opentensor/subtensor common/src/transaction_error.rs, spec 424)`
        : `Subtensor custom error ${number}, not in the spec 424 table`;
      return refuse(`Custom(${number})`, explanation, retryableCustomCodes.has(number));
    }
    for (const reason of invalidTransactionReasons) {
      if (reason.pattern.test(message)) return refuse(reason.code, reason.advice, reason.retryable);
    }
    return refuse('InvalidTransaction', 'the runtime rejected it in validation', false);
  }
  if (rpcCode === 1011)
    return refuse('UnknownTransaction', 'the node could not validate it (missing state or unknown validity)', false);
  if (rpcCode === 1012)
    return refuse('TemporarilyBanned', 'the same extrinsic was refused recently; wait before sending it again', true);
  if (rpcCode === 1013) return refuse('AlreadyImported', 'the same extrinsic is already in the pool', false);
  if (rpcCode === 1014 || /priority is too low/i.test(message))
    return refuse(
      'PriorityTooLow',
      'another transaction with the same nonce has higher priority; retry with a fresh nonce',
      true,
    );
  if (rpcCode === 1015) return refuse('CycleDetected', 'the transaction depends on itself', false);
  if (rpcCode === 1016) return refuse('ImmediatelyDropped', 'the pool is full; try again', true);
  if (connectionPatterns.test(message)) {
    return new ChainError('connection', 'disconnected', `the node connection failed while sending: ${message}`, {
      retryable: true,
      cause: error,
    });
  }
  return refuse('Rejected', 'an unclassified refusal', false);
}

/** Decodes a DispatchError from an included extrinsic into `Pallet.ErrorName` through the metadata. */
export function classifyDispatchError(registry: Registry, dispatchError: DispatchError): ChainError {
  if (dispatchError.isModule) {
    const meta = registry.findMetaError(dispatchError.asModule);
    const code = `${meta.section.charAt(0).toUpperCase()}${meta.section.slice(1)}.${meta.name}`;
    const docs = meta.docs.join(' ').trim();
    return new ChainError('dispatch', code, `the runtime refused the call: ${code}${docs ? ` (${docs})` : ''}`, {
      retryable: retryableDispatchErrors.has(code),
    });
  }
  if (dispatchError.isBadOrigin)
    return new ChainError(
      'dispatch',
      'BadOrigin',
      'the runtime refused the call: BadOrigin (the signer may not make this call)',
    );
  if (dispatchError.isToken)
    return new ChainError(
      'dispatch',
      `Token.${dispatchError.asToken.type}`,
      `the runtime refused the call: Token.${dispatchError.asToken.type}`,
    );
  if (dispatchError.isArithmetic)
    return new ChainError(
      'dispatch',
      `Arithmetic.${dispatchError.asArithmetic.type}`,
      `the runtime refused the call: Arithmetic.${dispatchError.asArithmetic.type}`,
    );
  return new ChainError('dispatch', dispatchError.type, `the runtime refused the call: ${dispatchError.type}`);
}
