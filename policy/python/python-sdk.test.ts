// The Python policy SDK (trajrl_policy), the policy.json runner and the Python example packs, run
// with this host's python3 against a fake gateway, driven as the agent would drive them.
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FakeGateway, toolCallArguments } from './testing/fake-gateway.ts';
import { chat, sessionHead, toolTurn } from './testing/chat-client.ts';
import { examplesRoot, findPython, PolicyProcess, runnerScript } from './testing/python-policy-process.ts';

// The bootstrap installs Debian's python3-aiohttp and python3-httpx: a missing one is a failure, not a skip.
const python = findPython() ?? 'python3-with-aiohttp-and-httpx-not-found';
const skip = false;

const gateway = new FakeGateway();
const started: PolicyProcess[] = [];
const scratchDirs: string[] = [];

async function startPolicy(policyDir: string, kind: 'json' | 'py' = 'py'): Promise<PolicyProcess> {
  const policy = await PolicyProcess.start({
    python: python!,
    script: kind === 'json' ? runnerScript : path.join(policyDir, 'policy.py'),
    policyDir,
    upstreamUrl: gateway.baseUrl,
    episodeToken: gateway.token,
    defaultModel: 'qwen3.8-27b',
  });
  started.push(policy);
  await policy.ready();
  return policy;
}

async function scratchPolicy(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-pysdk-'));
  scratchDirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

const example = (name: string) => path.join(examplesRoot, name);
const models = () => gateway.completions().map((body) => body.model);

describe('Python policy SDK', { skip }, () => {
  before(async () => {
    await gateway.start();
  });
  after(async () => {
    await Promise.all(started.map((p) => p.stop()));
    await gateway.stop();
    await Promise.all(scratchDirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  test('pin (policy.json): models list auto; plain and streamed answers with a tool call pass through', async () => {
    gateway.reset();
    const policy = await startPolicy(example('pin-glm-flash'), 'json');
    const listed = await (await fetch(`${policy.baseUrl}/models`)).json();
    assert.deepEqual(
      listed.data.map((m: any) => m.id),
      ['auto'],
    );

    const plain = await chat(policy.baseUrl, { messages: [{ role: 'user', content: 'hello' }] });
    assert.equal(plain.status, 200);
    assert.equal(plain.message.content, 'answer from glm-5.3-flash');

    const tools = [{ type: 'function', function: { name: 'terminal', parameters: { type: 'object' } } }];
    const streamed = await chat(policy.baseUrl, {
      stream: true,
      tools,
      messages: [{ role: 'user', content: 'list files [tool]' }],
    });
    assert.equal(streamed.status, 200);
    assert.ok(streamed.sawDone, 'stream ends with [DONE]');
    assert.deepEqual(streamed.message.toolCalls, [
      { id: 'call_fake_1', name: 'terminal', arguments: toolCallArguments },
    ]);
    assert.ok(streamed.chunks.length >= 4, 'chunks arrive as the gateway sent them');

    const sent = gateway.completions();
    assert.deepEqual(
      sent.map((b) => b.model),
      ['glm-5.3-flash', 'glm-5.3-flash'],
    );
    assert.deepEqual(sent[1].tools, tools, 'tools reach the gateway unchanged');
    assert.equal(sent[1].stream_options?.include_usage, true);
    assert.ok(gateway.requests.every((r) => r.authorization === `Bearer ${gateway.token}`));
    // The budget is read after the stream has ended, so the agent may see the answer first.
    for (let i = 0; i < 40 && !gateway.requests.some((r) => r.path === '/v1/budget'); i++)
      await new Promise((r) => setTimeout(r, 25));
    assert.ok(
      gateway.requests.some((r) => r.path === '/v1/budget'),
      'budget read after a streamed call',
    );
    // ctx.remaining_usd follows the gateway: the turn log line carries it.
    const expected = `"remaining_usd": ${Number(gateway.remainingUsd.toFixed(6))}`;
    for (let i = 0; i < 40 && !policy.stderr.includes(expected); i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(policy.stderr.includes(expected), `${expected} in\n${policy.stderr}`);
  });

  test('402 cap and other gateway errors reach the agent as OpenAI errors with the same status', async () => {
    gateway.reset();
    const policy = await startPolicy(example('pin-glm-flash'), 'json');
    gateway.capped = true;
    for (const stream of [false, true]) {
      const reply = await chat(policy.baseUrl, { stream, messages: [{ role: 'user', content: 'hello' }] });
      assert.equal(reply.status, 402);
      assert.equal(reply.body.error.type, 'cap');
      assert.match(reply.body.error.message, /budget/);
    }
  });

  test('escalate: cheap until a tool-error signal, then strong for the rest of that session only', async () => {
    gateway.reset();
    const policy = await startPolicy(example('escalate-on-trouble'), 'json');
    const head = sessionHead('escalate-a');
    await chat(policy.baseUrl, { messages: [...head, ...toolTurn('ls', false)] });
    const failing = [...head, ...toolTurn('make', true), ...toolTurn('make', true), ...toolTurn('make all', true)];
    await chat(policy.baseUrl, { stream: true, messages: failing });
    const recovered = [
      ...failing,
      ...toolTurn('apt list', false),
      ...toolTurn('cat > /app/out.txt', false),
      ...toolTurn('ls', false),
    ];
    await chat(policy.baseUrl, { messages: recovered });
    await chat(policy.baseUrl, { messages: [...sessionHead('escalate-b'), ...toolTurn('ls', false)] });
    assert.deepEqual(models(), ['qwen3.6-35b-a3b', 'glm-5.3', 'glm-5.3', 'qwen3.6-35b-a3b']);
  });

  test('advisers: notes from each adviser reach the writer once tool results exist, every 2nd turn', async () => {
    gateway.reset();
    const policy = await startPolicy(example('flash-advisers'), 'json');
    await chat(policy.baseUrl, {
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'go' },
      ],
    });
    assert.deepEqual(models(), ['glm-5.3-flash'], 'no tool results yet: the writer alone');
    gateway.reset();
    const head = sessionHead('advisers');
    await chat(policy.baseUrl, { messages: head });
    assert.deepEqual(models(), ['glm-5.3-flash'], 'turn 1 of the session: not an adviser turn');
    gateway.reset();
    const reply = await chat(policy.baseUrl, { stream: true, messages: [...head, ...toolTurn('ls', false)] });
    assert.equal(reply.message.content, 'answer from glm-5.3-flash');
    const sent = gateway.completions();
    assert.deepEqual(sent.map((b) => b.model).sort(), ['deepseek-v4.1-flash', 'glm-5.3-flash', 'qwen3.8-27b']);
    for (const adviserCall of sent.filter((b) => b.model !== 'glm-5.3-flash')) {
      assert.equal(adviserCall.stream, false);
      assert.equal(adviserCall.max_tokens, 300);
      assert.equal(adviserCall.temperature, 0.5);
    }
    const writer = sent.find((b) => b.model === 'glm-5.3-flash');
    const note = writer.messages[writer.messages.length - 1];
    assert.equal(note.role, 'system');
    assert.match(note.content, /answer from deepseek-v4\.1-flash/);
    assert.match(note.content, /answer from qwen3\.8-27b/);
    assert.equal(writer.stream, true);
  });

  test('sdk-cascade: a session is its first five messages; strong model and one adviser after tool errors or 12 turns', async () => {
    gateway.reset();
    const policy = await startPolicy(example('sdk-cascade'));
    const head = sessionHead('cascade-a');
    for (let turn = 1; turn <= 12; turn++)
      await chat(policy.baseUrl, { messages: [...head, ...toolTurn(`step ${turn}`, false)] });
    assert.ok(
      models().every((m) => m === 'glm-5.3-flash'),
      'twelve cheap turns',
    );
    gateway.reset();
    await chat(policy.baseUrl, { messages: [...head, ...toolTurn('step 13', false)] });
    assert.deepEqual(models(), ['deepseek-v4.1-flash', 'glm-5.3'], 'turn 13: adviser, then the strong writer');
    const writer = gateway.completions()[1];
    assert.match(
      writer.messages[writer.messages.length - 1].content,
      /Adviser note .*answer from deepseek-v4\.1-flash/,
    );

    gateway.reset();
    const other = sessionHead('cascade-b');
    await chat(policy.baseUrl, { messages: [...other, ...toolTurn('ls', false)] });
    await chat(policy.baseUrl, {
      stream: true,
      messages: [...other, ...toolTurn('a', true), ...toolTurn('b', true), ...toolTurn('c', true)],
    });
    assert.deepEqual(
      models(),
      ['glm-5.3-flash', 'deepseek-v4.1-flash', 'glm-5.3'],
      'a new session starts cheap; tool errors escalate it',
    );
  });

  test('raw-proxy (no SDK): pins DEFAULT_MODEL and streams through', async () => {
    gateway.reset();
    const policy = await startPolicy(example('raw-proxy'));
    const plain = await chat(policy.baseUrl, { messages: [{ role: 'user', content: 'hello' }] });
    assert.equal(plain.message.content, 'answer from qwen3.8-27b');
    const streamed = await chat(policy.baseUrl, { stream: true, messages: [{ role: 'user', content: 'go [tool]' }] });
    assert.ok(streamed.sawDone);
    assert.equal(streamed.message.toolCalls[0]?.arguments, toolCallArguments);
    assert.deepEqual(models(), ['qwen3.8-27b', 'qwen3.8-27b']);
  });

  test('ctx.call + ctx.render: an assembled message answers whole or as a stream with tool_calls deltas; auto uses DEFAULT_MODEL', async () => {
    gateway.reset();
    const dir = await scratchPolicy({
      'policy.py': [
        'from trajrl_policy import Policy, serve',
        'class Render(Policy):',
        '    async def handle(self, req, ctx):',
        '        result = await ctx.call("auto", req["messages"], max_tokens=50, temperature=0.1)',
        '        assert result["status"] == 200 and result["role"] == "assistant", result',
        '        ctx.session["remaining"] = ctx.remaining_usd',
        '        return ctx.render(result["message"])',
        'serve(Render())',
      ].join('\n'),
    });
    const policy = await startPolicy(dir);
    const streamed = await chat(policy.baseUrl, {
      stream: true,
      messages: [{ role: 'user', content: 'do it [tool]' }],
    });
    assert.ok(streamed.sawDone);
    assert.deepEqual(streamed.message.toolCalls, [
      { id: 'call_fake_1', name: 'terminal', arguments: toolCallArguments },
    ]);
    assert.equal(streamed.chunks.at(-1).choices[0].finish_reason, 'tool_calls');
    const plain = await chat(policy.baseUrl, { messages: [{ role: 'user', content: 'say hi' }] });
    assert.equal(plain.body.object, 'chat.completion');
    assert.equal(plain.message.content, 'answer from qwen3.8-27b');
    assert.deepEqual(
      gateway.completions().map((b) => [b.model, b.max_tokens, b.stream]),
      [
        ['qwen3.8-27b', 50, false],
        ['qwen3.8-27b', 50, false],
      ],
    );
  });

  test('a policy that raises: the agent gets a 500 OpenAI error with the message, stderr the traceback', async () => {
    const dir = await scratchPolicy({
      'policy.py': [
        'from trajrl_policy import Policy, serve',
        'class Broken(Policy):',
        '    async def handle(self, req, ctx):',
        '        raise RuntimeError("deliberate failure in handle")',
        'serve(Broken())',
      ].join('\n'),
    });
    const policy = await startPolicy(dir);
    const reply = await chat(policy.baseUrl, { messages: [{ role: 'user', content: 'hello' }] });
    assert.equal(reply.status, 500);
    assert.match(reply.body.error.message, /deliberate failure in handle/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.match(policy.stderr, /Traceback \(most recent call last\)/);
    assert.match(policy.stderr, /RuntimeError: deliberate failure in handle/);
  });

  test('a malformed policy.json stops the runner at start with one line naming the field', async () => {
    const dir = await scratchPolicy({
      'policy.json': JSON.stringify({ kind: 'escalate', cheap: 'glm-5.3-flash', strong: 'gpt-4o' }),
    });
    const policy = await PolicyProcess.start({
      python: python!,
      script: runnerScript,
      policyDir: dir,
      upstreamUrl: gateway.baseUrl,
      episodeToken: gateway.token,
    });
    started.push(policy);
    assert.equal(await policy.exited, 2);
    const lines = policy.stderr.trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^policy\.json: field "strong" must be one of .*kimi-k3 \(got "gpt-4o"\)$/);
  });
});
