// Opens an ApiPromise on a Subtensor node. Auto-reconnect is off: a dead endpoint fails once,
// as a retryable ChainError, instead of retrying every few seconds in the background forever;
// the caller decides when to open again.
import { ApiPromise, WsProvider } from '@polkadot/api';
import type { ExtDef } from '@polkadot/types/extrinsic/signedExtensions/types';
import { ChainError } from '../chain-error.ts';

/**
 * Subtensor's own transaction extensions (spec 424). Each encodes zero bytes in the extrinsic and
 * in the signed payload; declaring them lets @polkadot/api sign for that runtime without warnings.
 */
export const subtensorSignedExtensions: ExtDef = {
  SudoTransactionExtension: { extrinsic: {}, payload: {} },
  CheckShieldedTxValidity: { extrinsic: {}, payload: {} },
  SubtensorTransactionExtension: { extrinsic: {}, payload: {} },
  DrandPriority: { extrinsic: {}, payload: {} },
};

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function connectProvider(endpoint: string, timeoutMs: number): Promise<WsProvider> {
  // The fourth argument is the per-request timeout: a hung node fails reads instead of hanging them.
  const provider = new WsProvider(endpoint, false, {}, timeoutMs);
  const connected = new Promise<void>((resolve, reject) => {
    const offConnected = provider.on('connected', () => {
      offConnected();
      offError();
      resolve();
    });
    const offError = provider.on('error', (error: unknown) => {
      offConnected();
      offError();
      reject(
        error instanceof Error
          ? error
          : new Error(String((error as { message?: string })?.message ?? 'websocket error')),
      );
    });
  });
  try {
    await provider.connect();
    await withTimeout(connected, timeoutMs, () => new Error(`no answer within ${timeoutMs} ms`));
    return provider;
  } catch (error) {
    await provider.disconnect().catch(() => undefined);
    throw error;
  }
}

export async function openApi(endpoint: string, timeoutMs: number): Promise<ApiPromise> {
  if (!/^wss?:\/\/[^\s]+$/.test(endpoint)) {
    throw new ChainError('connection', 'bad_endpoint', `endpoint "${endpoint}" is not a ws:// or wss:// URL`);
  }
  let provider: WsProvider;
  try {
    provider = await connectProvider(endpoint, timeoutMs);
  } catch (error) {
    throw new ChainError(
      'connection',
      'connect_failed',
      `could not connect to ${endpoint}: ${(error as Error).message}; check that the node is running and the endpoint is right`,
      { retryable: true, cause: error },
    );
  }
  const api = new ApiPromise({ provider, signedExtensions: subtensorSignedExtensions, noInitWarn: true });
  try {
    await withTimeout(api.isReadyOrError, timeoutMs, () => new Error(`metadata not loaded within ${timeoutMs} ms`));
    return api;
  } catch (error) {
    await api.disconnect().catch(() => undefined);
    throw new ChainError(
      'connection',
      'connect_failed',
      `connected to ${endpoint} but could not initialise the API: ${(error as Error).message}`,
      { retryable: true, cause: error },
    );
  }
}
