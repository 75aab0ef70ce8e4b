import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import OpenAI, { APIError, APIUserAbortError } from 'openai';
import { createNodeHttpFetch } from './node-http-fetch.ts';
import { listenOn } from './listen.ts';
import { startSimFleet } from '../../simfleet/sim-fleet-server.ts';

test('the OpenAI client over the node:http fetch gets whole and streamed completions, usage and request ids from the sim fleet', async (t) => {
  const fleet = await startSimFleet({ timeScale: 0 });
  const fetch = createNodeHttpFetch();
  t.after(async () => {
    fetch.close();
    await fleet.close();
  });
  const client = new OpenAI({ baseURL: fleet.url, apiKey: 'sim', maxRetries: 0, fetch });
  const messages = [{ role: 'user' as const, content: 'Say hello in one short sentence.' }];
  const whole = await client.chat.completions.create({ model: 'glm-5.3-flash', messages, max_tokens: 64, seed: 1 }).withResponse();
  assert.ok(whole.data.choices[0]?.message.content, 'a whole completion has text');
  assert.ok((whole.data.usage?.prompt_tokens ?? 0) > 0);
  assert.equal(whole.response.status, 200);

  const stream = await client.chat.completions.create({ model: 'glm-5.3-flash', messages, max_tokens: 64, seed: 1, stream: true, stream_options: { include_usage: true } });
  let text = '';
  let usage: unknown;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    if (chunk.usage) usage = chunk.usage;
  }
  assert.equal(text, whole.data.choices[0]?.message.content, 'the streamed text is the whole answer');
  assert.ok(usage, 'the last chunk carries usage');
});

test('upstream errors keep their status and body; an abort stops the request as the SDK expects', async (t) => {
  let held: http.ServerResponse | undefined;
  const server = http.createServer((request, response) => {
    request.resume();
    if (request.url?.includes('chat')) {
      if (request.headers['x-hold'] === '1') {
        held = response; // never answered: the client aborts
        return;
      }
      response.writeHead(429, { 'content-type': 'application/json', 'x-request-id': 'req-429' });
      return void response.end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } }));
    }
    response.writeHead(404).end();
  });
  const listening = await listenOn(server, '127.0.0.1');
  const fetch = createNodeHttpFetch();
  t.after(async () => {
    held?.destroy();
    fetch.close();
    await listening.close();
  });
  const client = new OpenAI({ baseURL: listening.url, apiKey: 'x', maxRetries: 0, fetch });
  const refused = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (error: unknown) => error);
  assert.ok(refused instanceof APIError, `an APIError, not ${String(refused)}`);
  assert.equal(refused.status, 429);
  assert.equal(refused.requestID, 'req-429');
  assert.match(refused.message, /slow down/);

  const controller = new AbortController();
  const pending = client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, { signal: controller.signal, headers: { 'x-hold': '1' } });
  const caught = pending.then(() => undefined, (error: unknown) => error);
  while (!held) await new Promise((resolve) => setTimeout(resolve, 5));
  controller.abort();
  assert.ok((await caught) instanceof APIUserAbortError, 'an aborted call rejects as the SDK\'s abort error');
});
