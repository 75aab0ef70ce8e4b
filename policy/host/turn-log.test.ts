// The turn log: one line per agent request, in order, with the messages new since the last one;
// provenance sees each answer as it is recorded; a turn too large to log keeps its counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TurnLog } from './turn-log.ts';

const turn = (requestId: string, response: unknown, newMessages: unknown[] = []) => ({
  requestId,
  startedAtMs: 1,
  latencyMs: 2,
  messageCount: newMessages.length,
  newMessages,
  toolCount: 0,
  response,
});

test('turns are numbered and written in order; provenance sees each answer as it is recorded', async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'trl-turn-log-')), 'turns.jsonl');
  const seen: unknown[] = [];
  const log = new TurnLog(file, (response) => seen.push(response));
  const messages = [{ role: 'user', content: 'one' }];
  log.append(turn('req-1', { content: 'a' }, log.newMessagesOf(messages)));
  assert.deepEqual(seen, [{ content: 'a' }]);
  messages.push({ role: 'assistant', content: 'a' }, { role: 'user', content: 'two' });
  log.append(turn('req-2', { content: 'b' }, log.newMessagesOf(messages)));
  await new Promise((resolve) => setImmediate(resolve));
  log.append({ ...turn('req-3', undefined), error: { kind: 'timeout', message: 'no answer' } });
  await log.close();
  const lines = (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { turn: number; requestId: string; newMessages: unknown[]; error?: unknown });
  assert.deepEqual(
    lines.map((l) => [l.turn, l.requestId]),
    [
      [1, 'req-1'],
      [2, 'req-2'],
      [3, 'req-3'],
    ],
  );
  assert.deepEqual(lines[1]!.newMessages, [
    { role: 'assistant', content: 'a' },
    { role: 'user', content: 'two' },
  ]);
  assert.deepEqual(lines[2]!.error, { kind: 'timeout', message: 'no answer' });
  assert.equal(seen.length, 2, 'a failed turn has no answer to measure');
});

test('a turn too large to log keeps its counts, and the turns after it are written', async () => {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'trl-turn-log-')), 'turns.jsonl');
  const log = new TurnLog(file);
  log.append(turn('req-1', { content: 'ok' }, [{ role: 'tool', content: 'x'.repeat(600 * 1024) }]));
  log.append(turn('req-2', { content: 'after' }));
  await new Promise((resolve) => setImmediate(resolve));
  await log.close();
  const lines = (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { requestId: string; messageCount: number; newMessages?: unknown });
  assert.deepEqual(
    lines.map((l) => l.requestId),
    ['req-1', 'req-2'],
  );
  assert.match(String(lines[0]!.newMessages), /^\[1 messages, \d+ chars: too large to log\]$/);
  assert.equal(lines[0]!.messageCount, 1);
});
