// The ClientGate of `trl serve` with API keys: a request needs `Authorization: Bearer <key>` of a
// key that is not revoked, under its request rate (a sliding minute) and its spend limit (what its
// call log adds up to). Every chat request, answered or refused after admission, gets a line in
// the key's call log. A request admitted under the limit may pass it by its own cost (at most the
// instance's cap); the next one is refused.
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { HttpError } from '../gateway/http/json-body.ts';
import { hashKey, type ApiKey } from './api-keys.ts';
import type { ClientGate, ServedCall } from './serve-server.ts';

const windowMs = 60_000;

interface KeyState {
  key: ApiKey;
  spentUsd: number;
  recentMs: number[];
}

export async function createKeyGate(
  keys: readonly ApiKey[],
  callLogFile: (keyId: string) => string,
  now: () => number = () => performance.now(),
): Promise<ClientGate & { spentUsd(keyId: string): number }> {
  const byHash = new Map<string, KeyState>();
  for (const key of keys) {
    if (key.revoked) continue;
    byHash.set(key.sha256, { key, spentUsd: await spentSoFar(callLogFile(key.id)), recentMs: [] });
  }
  const byId = new Map([...byHash.values()].map((state) => [state.key.id, state]));
  return {
    async admit(authorization) {
      const secret = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
      if (!secret)
        throw new HttpError(
          401,
          'invalid_api_key',
          'this server needs an API key: Authorization: Bearer <key> (make one with `trl serve keys add`)',
        );
      const state = byHash.get(hashKey(secret));
      if (!state) throw new HttpError(401, 'invalid_api_key', 'unknown or revoked API key');
      const { key } = state;
      if (key.spendLimitUsd !== undefined && state.spentUsd >= key.spendLimitUsd) {
        throw new HttpError(
          402,
          'spend_limit_reached',
          `key ${key.id} has spent $${state.spentUsd.toFixed(4)} of its $${key.spendLimitUsd} limit`,
        );
      }
      const at = now();
      state.recentMs = state.recentMs.filter((t) => at - t < windowMs);
      if (key.requestsPerMinute !== undefined && state.recentMs.length >= key.requestsPerMinute) {
        throw new HttpError(
          429,
          'rate_limit_exceeded',
          `key ${key.id} is limited to ${key.requestsPerMinute} requests per minute`,
        );
      }
      state.recentMs.push(at);
      return { clientId: key.id };
    },
    async record(clientId, call: ServedCall) {
      const state = byId.get(clientId);
      if (state) state.spentUsd += call.costUsd;
      const file = callLogFile(clientId);
      await mkdir(path.dirname(file), { recursive: true });
      await appendFile(file, JSON.stringify(call) + '\n');
    },
    spentUsd: (keyId) => byId.get(keyId)?.spentUsd ?? 0,
  };
}

async function spentSoFar(file: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return 0;
  }
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      total += Number((JSON.parse(line) as { costUsd?: unknown }).costUsd) || 0;
    } catch {
      // A torn last line (the server stopped mid-write) costs nothing.
    }
  }
  return total;
}
