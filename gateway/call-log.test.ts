// The call log's rows: written in the order the calls made them (batched per event-loop turn, all
// of them by close), with their time, phase and bodies; the in-memory summaries without bodies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CallLog } from './call-log.ts';

const identity = { requestId: 'req-1', model: 'glm-5.3-flash', streamed: false };
const start = (callId: string, request: unknown) => ({
  ...identity,
  callId,
  promptEstimateTokens: 53,
  answerCount: 1,
  maxTokens: 64,
  clamped: false,
  reservedUsd: 0.001,
  request,
});
const end = (callId: string, response: unknown) => ({
  ...identity,
  callId,
  status: 'ok' as const,
  attempts: 1,
  basis: 'usage' as const,
  promptTokens: 20,
  cachedPromptTokens: 0,
  completionTokens: 8,
  maxTokens: 64,
  clamped: false,
  reservedUsd: 0.001,
  costUsd: 0.0001,
  overshootUsd: 0,
  spentAfterUsd: 0.0001,
  latencyMs: 3,
  response,
});

test('rows reach the file in the order they were made, each with its time and phase, bodies included', async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'trl-call-log-')), 'model-calls.jsonl');
  const log = new CallLog(file);
  log.started(start('c1', { messages: [{ role: 'user', content: 'hi' }] }));
  log.started(start('c2', { messages: [{ role: 'user', content: 'again' }] }));
  assert.equal(log.inFlightCount, 2);
  await new Promise((resolve) => setImmediate(resolve));
  log.ended(end('c2', { choices: [{ message: { content: 'two' } }] }));
  log.refused({ ...identity, callId: 'c3', errorType: 'cap', message: 'over the cap', spentAfterUsd: 0.0001 });
  log.ended(end('c1', { choices: [{ message: { content: 'one' } }] }));
  await log.close();
  const rows = (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as { time: string; phase: string; callId: string; request?: unknown; response?: unknown },
    );
  assert.deepEqual(
    rows.map((r) => `${r.phase} ${r.callId}`),
    ['start c1', 'start c2', 'end c2', 'refused c3', 'end c1'],
  );
  assert.ok(rows.every((r) => !Number.isNaN(Date.parse(r.time))));
  assert.deepEqual(rows[0]!.request, { messages: [{ role: 'user', content: 'hi' }] });
  assert.deepEqual(rows[4]!.response, { choices: [{ message: { content: 'one' } }] });
  assert.deepEqual(
    log.entries.map((e) => e.callId),
    ['c2', 'c3', 'c1'],
    'the summaries, without bodies, in the order calls finished',
  );
  assert.equal(log.inFlightCount, 0);
});
