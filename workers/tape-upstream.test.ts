import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTapeUpstream } from './tape-upstream.ts';

const request = (text: string) => ({ model: 'glm-5.3-flash', messages: [{ role: 'user' as const, content: text }] });
const answer = {
  id: 'x',
  object: 'chat.completion',
  created: 0,
  model: 'glm-5.3-flash',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'done' } }],
  usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
};
const log = [
  { phase: 'start', callId: '1', requestId: 'req-1', model: 'glm-5.3-flash', request: request('first') },
  { phase: 'start', callId: '2', requestId: 'req-1', model: 'glm-5.3-flash', request: request('raced') },
  { phase: 'end', callId: '1', status: 'ok', response: answer },
  { phase: 'end', callId: '2', status: 'error', errorType: 'abandoned' },
  { phase: 'start', callId: '3', requestId: 'req-2', model: 'glm-5.3-flash', request: request('open at the deadline') },
]
  .map((row) => JSON.stringify(row))
  .join('\n');

test('a call cut in the recording waits unanswered until its caller gives it up, and ends nothing', async () => {
  const tape = createTapeUpstream(log);
  const giveUp = new AbortController();
  const raced = tape.client.chat.completions.create(request('raced'), { signal: giveUp.signal });
  const first = await tape.client.chat.completions.create(request('first'));
  assert.equal(first.choices[0]!.message.content, 'done');
  assert.equal(first.usage!.prompt_tokens, 0, 'a tape call costs nothing');
  giveUp.abort();
  await assert.rejects(raced);
  assert.equal(tape.ended.aborted, false, 'an answer was still to come when it was cut');
  assert.equal(tape.divergence(), undefined);
});

test('the call the recording stopped on ends the replay there, and is left unanswered', async () => {
  const tape = createTapeUpstream(log);
  await tape.client.chat.completions.create(request('first'));
  const giveUp = new AbortController();
  const open = tape.client.chat.completions.create(request('open at the deadline'), { signal: giveUp.signal });
  await new Promise((resolve) => tape.ended.addEventListener('abort', resolve, { once: true }));
  assert.match((tape.ended.reason as Error).message, /reached the call the recording stopped on \(req-2/);
  giveUp.abort();
  await assert.rejects(open);
  assert.equal(tape.divergence(), undefined, 'not a divergence');
});
