import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { addApiKey, readApiKeys, revokeApiKey } from './api-keys.ts';
import { createKeyGate } from './key-gate.ts';
import type { ServedCall } from './serve-server.ts';

const call = (costUsd: number): ServedCall => ({
  at: 'now',
  requestId: 'r',
  session: 'c-1',
  status: 200,
  streamed: false,
  latencyMs: 1,
  costUsd,
  models: ['glm-5.3-flash'],
  promptTokens: 1,
  completionTokens: 1,
});

test('keys are stored hashed; a key admits, a wrong or revoked one does not', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-keys-'));
  const file = path.join(dir, 'api-keys.json');
  const { key, secret } = await addApiKey(file, { label: 'team a' });
  const other = await addApiKey(file, { label: 'team b' });
  const stored = await readFile(file, 'utf8');
  assert.ok(!stored.includes(secret) && stored.includes(key.sha256), 'only the hash is at rest');
  await revokeApiKey(file, other.key.id);
  const gate = await createKeyGate(await readApiKeys(file), (id) => path.join(dir, `${id}.jsonl`));
  assert.deepEqual(await gate.admit(`Bearer ${secret}`), { clientId: key.id });
  await assert.rejects(gate.admit(undefined), /needs an API key/);
  await assert.rejects(gate.admit('Bearer trl-sk-wrong'), /unknown or revoked/);
  await assert.rejects(gate.admit(`Bearer ${other.secret}`), /unknown or revoked/);
});

test('a spend limit refuses once the call log reaches it, also after a restart; a rate limit per minute', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-keys-'));
  const file = path.join(dir, 'api-keys.json');
  const logOf = (id: string) => path.join(dir, 'calls', `${id}.jsonl`);
  const { key, secret } = await addApiKey(file, { label: 'capped', spendLimitUsd: 0.01, requestsPerMinute: 3 });
  let clock = 0;
  const gate = await createKeyGate(await readApiKeys(file), logOf, () => clock);
  await gate.admit(`Bearer ${secret}`);
  await gate.record(key.id, call(0.006));
  await gate.admit(`Bearer ${secret}`);
  await gate.record(key.id, call(0.006));
  await assert.rejects(
    gate.admit(`Bearer ${secret}`),
    (error: Error & { status?: number }) => error.status === 402 && /0.0120 of its \$0.01 limit/.test(error.message),
  );
  const restarted = await createKeyGate(await readApiKeys(file), logOf, () => clock);
  assert.equal(restarted.spentUsd(key.id), 0.012);
  assert.equal((await readFile(logOf(key.id), 'utf8')).trim().split('\n').length, 2, 'one call-log line per request');

  const rated = await addApiKey(file, { label: 'rated', requestsPerMinute: 2 });
  const gate2 = await createKeyGate(await readApiKeys(file), logOf, () => clock);
  await gate2.admit(`Bearer ${rated.secret}`);
  await gate2.admit(`Bearer ${rated.secret}`);
  await assert.rejects(
    gate2.admit(`Bearer ${rated.secret}`),
    (error: Error & { status?: number }) => error.status === 429,
  );
  clock = 60_000;
  await gate2.admit(`Bearer ${rated.secret}`);
});
