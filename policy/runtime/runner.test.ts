import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundleSource } from '../testing/bundle-to-file.ts';
import { startHost, type FakeHost } from '../testing/fake-host.ts';
import { waitFor } from '../../test/support/worker-process.ts';
import { errorReply, textReply } from '../testing/completions.ts';

const request = { messages: [{ role: 'user', content: 'hello' }] };

async function withRunner(
  source: string,
  script: Parameters<typeof startHost>[0],
  run: (host: FakeHost) => Promise<void>,
): Promise<void> {
  const host = startHost(script);
  try {
    const ready = await host.init(await bundleSource(source));
    assert.deepEqual(ready, { t: 'ready' }, host.stderr);
    await run(host);
    assert.deepEqual(host.invalidLines, [], 'every line the runner printed is a protocol message');
  } finally {
    assert.equal(await host.close(), 0, 'the runner exits cleanly when the host closes the channel');
  }
}

test('a request round trip: the call carries ids, model, body and options; the response comes back', async () => {
  const source = `import { definePolicy } from 'trl-policy-sdk';
export default definePolicy({ async complete(request, ctx) { return ctx.call('glm-5.2', request, { maxTokens: 512, branch: 'main' }); } });`;
  await withRunner(
    source,
    (call) => textReply(call.model, 'hi there'),
    async (host) => {
      const outcome = await host.request(request, 'req-1');
      assert.equal(outcome.t, 'response');
      assert.equal(
        (outcome as { body: { choices: { message: { content: string } }[] } }).body.choices[0]?.message.content,
        'hi there',
      );
      assert.equal(host.calls.length, 1);
      const call = host.calls[0]!;
      assert.equal(call.requestId, 'req-1');
      assert.equal(call.model, 'glm-5.2');
      assert.deepEqual(call.body, request);
      assert.deepEqual(call.options, { maxTokens: 512, branch: 'main' });
    },
  );
});

test('calls run in parallel and requests overlap; each call_result reaches its own call', async () => {
  const source = `import { definePolicy } from 'trl-policy-sdk';
export default definePolicy({ async complete(request, ctx) {
  const models = ['glm-5.2', 'glm-5.3-flash', 'kimi-k3'];
  const replies = await Promise.all(models.map((m) => ctx.call(m, request, { maxTokens: 64 })));
  const joined = replies.map((r) => r.choices[0].message.content).join(',');
  return { ...replies[0], choices: [{ index: 0, message: { role: 'assistant', content: joined }, finish_reason: 'stop' }] };
} });`;
  let inFlight = 0;
  let maxInFlight = 0;
  // Answer in reverse order of arrival so a mix-up of call ids would show.
  const script = async (call: { model: string }) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const delay = { 'glm-5.2': 60, 'glm-5.3-flash': 30, 'kimi-k3': 5 }[call.model] ?? 0;
    await new Promise((resolve) => setTimeout(resolve, delay));
    inFlight -= 1;
    return textReply(call.model, call.model);
  };
  await withRunner(source, script, async (host) => {
    const [one, two] = await Promise.all([host.request(request, 'a'), host.request(request, 'b')]);
    for (const outcome of [one, two]) {
      assert.equal(outcome?.t, 'response');
      assert.equal(
        (outcome as { body: { choices: { message: { content: string } }[] } }).body.choices[0]?.message.content,
        'glm-5.2,glm-5.3-flash,kimi-k3',
      );
    }
    assert.equal(host.calls.length, 6);
    assert.equal(new Set(host.calls.map((call) => call.callId)).size, 6, 'call ids are unique');
    assert.ok(maxInFlight >= 3, `calls overlapped (at most ${maxInFlight} at once)`);
  });
});

test('a failed call rejects with status, type and retryable; the budget the host sent is visible', async () => {
  const source = `import { definePolicy, PolicyCallError, textCompletion } from 'trl-policy-sdk';
export default definePolicy({ async complete(request, ctx) {
  const seen = [];
  for (const model of ['glm-5.2', 'glm-5.3-flash']) {
    try { await ctx.call(model, request); }
    catch (error) { seen.push([error instanceof PolicyCallError, error.status, error.type, error.retryable, error.message].join('|')); }
  }
  return textCompletion(seen.join(' ; ') + ' ; remaining=' + ctx.budget.remainingUsd);
} });`;
  const script = (call: { model: string }, host: FakeHost) => {
    host.budget = { capUsd: 1, spentUsd: 0.75, remainingUsd: 0.25 };
    return call.model === 'glm-5.2'
      ? errorReply(429, 'rate_limited', true, 'slow down')
      : errorReply(400, 'invalid_request', false, 'bad body');
  };
  await withRunner(source, script, async (host) => {
    const outcome = await host.request(request);
    assert.equal(outcome.t, 'response');
    const text = (outcome as { body: { choices: { message: { content: string } }[] } }).body.choices[0]?.message
      .content;
    assert.equal(
      text,
      'true|429|rate_limited|true|slow down ; true|400|invalid_request|false|bad body ; remaining=0.25',
    );
  });
});

test('console output, stdout writes and ctx.log become bounded log lines, never protocol noise', async () => {
  const source = `import { definePolicy, textCompletion } from 'trl-policy-sdk';
console.log('loading');
export default definePolicy({ async complete(request, ctx) {
  console.log('{"t":"response","id":"fake"}');
  console.error('bad', { nested: true });
  process.stdout.write('raw write\\n');
  ctx.log('x'.repeat(5000));
  console.count('n'); console.time('t'); console.timeEnd('t'); console.group('g'); console.groupEnd(); console.table([{ a: 1 }]); console.dir({ a: 1 }); console.assert(false, 'nope');
  for (let i = 0; i < 500; i++) console.log('spam', i);
  return textCompletion('done');
} });`;
  await withRunner(
    source,
    (call) => textReply(call.model, 'unused'),
    async (host) => {
      const outcome = await host.request(request, 'noisy');
      assert.equal(outcome.t, 'response');
      assert.equal(outcome.id, 'noisy');
      const mine = host.logs.filter((log) => log.requestId === 'noisy');
      assert.equal(mine.length, 200, 'at most 200 log lines per request');
      assert.equal(mine[0]?.message, '{"t":"response","id":"fake"}');
      assert.deepEqual([mine[1]?.level, mine[1]?.message], ['error', 'bad { nested: true }']);
      assert.equal(mine[2]?.message, 'raw write');
      assert.ok((mine[3]?.message.length ?? 0) <= 2000, 'long lines are truncated to 2,000 characters');
      assert.match(mine.at(-1)?.message ?? '', /log limit of 200 lines reached/);
      assert.ok(
        host.logs.some((log) => log.requestId === undefined && log.message === 'loading'),
        'module-level output is a log without request',
      );
      assert.equal(host.messages.filter((message) => message.t === 'response').length, 1);
    },
  );
});

test('a throwing policy, a non-object result and an unhandled rejection give error and log, and the runner lives on', async () => {
  const source = `import { definePolicy, textCompletion } from 'trl-policy-sdk';
export default definePolicy({ async complete(request, ctx) {
  if (request.mode === 'throw') throw new Error('kaboom');
  if (request.mode === 'string') return 'not a completion';
  if (request.mode === 'reject') { Promise.reject(new Error('floating')); setTimeout(() => { throw new Error('late'); }, 1); }
  return textCompletion('still alive');
} });`;
  await withRunner(
    source,
    (call) => textReply(call.model, 'unused'),
    async (host) => {
      const thrown = await host.request({ ...request, mode: 'throw' });
      assert.equal(thrown.t, 'error');
      assert.match((thrown as { message: string }).message, /kaboom/);
      const wrongType = await host.request({ ...request, mode: 'string' });
      assert.equal(wrongType.t, 'error');
      assert.match((wrongType as { message: string }).message, /returned string/);
      assert.equal((await host.request({ ...request, mode: 'reject' })).t, 'response');
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(
        host.logs.some((log) => log.level === 'error' && /floating/.test(log.message)),
        'unhandled rejection reported',
      );
      assert.ok(
        host.logs.some((log) => log.level === 'error' && /late/.test(log.message)),
        'uncaught exception reported',
      );
      assert.equal((await host.request(request)).t, 'response', 'the runner still answers');
    },
  );
});

test('invalid call arguments are refused locally as invalid_request, not sent to the host', async () => {
  const source = `import { definePolicy, textCompletion } from 'trl-policy-sdk';
export default definePolicy({ async complete(request, ctx) {
  const results = await Promise.allSettled([ctx.call('glm-5.2', request, { maxTokens: 0 }), ctx.call(42, request), ctx.call('glm-5.2', 'text')]);
  return textCompletion(results.map((r) => r.status + ':' + r.reason?.type).join(','));
} });`;
  await withRunner(
    source,
    (call) => textReply(call.model, 'unused'),
    async (host) => {
      const outcome = await host.request(request);
      const text = (outcome as { body: { choices: { message: { content: string } }[] } }).body.choices[0]?.message
        .content;
      assert.equal(text, 'rejected:invalid_request,rejected:invalid_request,rejected:invalid_request');
      assert.equal(host.calls.length, 0);
    },
  );
});

test('a bundle without a policy or that throws while loading is fatal', async () => {
  for (const source of [
    'export default { notAPolicy: true };',
    "throw new Error('broken at load'); export default {};",
  ]) {
    const host = startHost((call) => textReply(call.model, 'unused'));
    const ready = await host.init(await bundleSource(source));
    assert.equal(ready.t, 'fatal');
    const outcome = await host.request(request);
    assert.equal(outcome.t, 'error');
    assert.equal(await host.close(), 0);
  }
});

test('calls made after the response are refused, and closing the channel ends the runner even with calls pending', async () => {
  const source = `import { definePolicy, textCompletion } from 'trl-policy-sdk';
let late;
export default definePolicy({ async complete(request, ctx) {
  if (request.mode === 'leak') { setTimeout(() => { late = ctx.call('glm-5.2', request).catch((e) => console.log('late call:', e.type)); }, 5); return textCompletion('early'); }
  if (request.mode === 'pending') { await ctx.call('glm-5.2', request); }
  return textCompletion('never');
} });`;
  const host = startHost(() => new Promise(() => undefined)); // the host never answers calls
  // Waits for what the runner sends, not a fixed 50 ms (a loaded machine missed it, and the failed assertion left the
  // runner alive, holding its test process open); the runner is closed whatever an assertion says.
  const arrived = (what: string, seen: () => boolean) => waitFor(async () => (seen() ? true : undefined), 10_000, what);
  try {
    assert.deepEqual(await host.init(await bundleSource(source)), { t: 'ready' });
    assert.equal((await host.request({ ...request, mode: 'leak' }, 'leak')).t, 'response');
    await arrived('the late call’s log', () => host.logs.some((log) => log.message === 'late call: invalid_request'));
    assert.equal(host.callsFor('leak').length, 0, 'no call after the answer');
    assert.ok(host.logs.some((log) => log.message === 'late call: invalid_request'));
    void host.request({ ...request, mode: 'pending' }, 'pending');
    await arrived('the pending call', () => host.callsFor('pending').length > 0);
    assert.equal(host.callsFor('pending').length, 1);
  } finally {
    assert.equal(await host.close(), 0);
  }
  assert.deepEqual(host.invalidLines, []);
});

test('a request before init is answered with an error', async () => {
  const host = startHost((call) => textReply(call.model, 'unused'));
  const outcome = await host.request(request, 'early');
  assert.equal(outcome.t, 'error');
  assert.match((outcome as { message: string }).message, /before init/);
  assert.equal(await host.close(), 0);
});
