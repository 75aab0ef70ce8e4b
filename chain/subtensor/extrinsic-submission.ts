// Signs, sends and waits for inclusion. Inclusion (InBlock) is the point where the runtime has
// accepted or refused the call; finality would add ~two blocks without changing the answer.
import type { ApiPromise, SubmittableResult } from '@polkadot/api';
import type { SubmittableExtrinsic } from '@polkadot/api/types';
import type { KeyringPair } from '@polkadot/keyring/types';
import { ChainError } from '../chain-error.ts';
import { classifyDispatchError, classifySubmissionError } from './transaction-errors.ts';

export interface Inclusion {
  block: number;
  blockHash: string;
  /** Extrinsic hash. */
  transaction: string;
}

export async function submitAndWaitForInclusion(
  api: ApiPromise,
  signer: KeyringPair,
  extrinsic: SubmittableExtrinsic<'promise'>,
  timeoutMs: number,
): Promise<Inclusion> {
  return new Promise<Inclusion>((resolve, reject) => {
    let settled = false;
    let unsubscribe: (() => void) | undefined;
    const finish = (outcome: { error: ChainError } | { inclusion: Inclusion }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      unsubscribe?.();
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.inclusion);
    };
    const timer = setTimeout(() => {
      finish({
        error: new ChainError(
          'connection',
          'inclusion_timeout',
          `the extrinsic was not included within ${timeoutMs} ms; it may still be included later`,
          { retryable: true },
        ),
      });
    }, timeoutMs);

    const onStatus = (result: SubmittableResult) => {
      const { status } = result;
      if (status.isInBlock || status.isFinalized) {
        if (result.dispatchError) {
          finish({ error: classifyDispatchError(api.registry, result.dispatchError) });
          return;
        }
        const blockHash = status.isInBlock ? status.asInBlock : status.asFinalized;
        api.rpc.chain
          .getHeader(blockHash)
          .then((header) =>
            finish({
              inclusion: {
                block: header.number.toNumber(),
                blockHash: blockHash.toHex(),
                transaction: result.txHash.toHex(),
              },
            }),
          )
          .catch((error: unknown) => finish({ error: classifySubmissionError(error) }));
      } else if (status.isInvalid || status.isDropped || status.isUsurped) {
        // Accepted into the pool, then thrown out (a nonce reused elsewhere, a full pool).
        finish({
          error: new ChainError(
            'invalid_transaction',
            status.type,
            `the node dropped the extrinsic after accepting it (${status.type}); send it again`,
            { retryable: true },
          ),
        });
      }
    };

    try {
      extrinsic
        .signAndSend(signer, { nonce: -1 }, onStatus)
        .then((stop) => {
          unsubscribe = stop;
          if (settled) stop();
        })
        .catch((error: unknown) => finish({ error: classifySubmissionError(error) }));
    } catch (error) {
      // Signing can throw before any promise exists (an argument that does not encode).
      finish({ error: classifySubmissionError(error) });
    }
  });
}
