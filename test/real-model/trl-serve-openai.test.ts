// `trl serve --upstream local-model` as a user runs it: the real command line in its own process, the cost-cascade
// example policy in its sandbox, llama-server with the local model behind the policy's metered gateway, and the
// openai npm client in front, non-streamed and streamed. Every answer the client reads was written by the model.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { repoRoot } from '../../common/data-layout.ts';
import { allowlist } from './local-model-fixture.ts';

const terminalTool = {
  type: 'function' as const,
  function: {
    name: 'terminal',
    description: 'run a shell command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
};
const messages = [
  { role: 'system' as const, content: 'You are a coding agent with a terminal.' },
  { role: 'user' as const, content: 'How many lines does /app/data/sales.csv have? Answer in one sentence.' },
];
const allowlisted = new Set(allowlist.models.map((model) => model.id));

describe('trl serve --upstream local-model, to an openai client', () => {
  let serve: ChildProcess;
  let stdout = '';
  let stderr = '';
  let client: OpenAI;

  before(async () => {
    serve = spawn(
      path.join(repoRoot, 'trl'),
      ['serve', '--upstream', 'local-model', '--pack', 'policy/examples/cost-cascade', '--port', '0'],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TRL_LOCAL_MODEL_SLOTS: '1' } },
    );
    serve.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`trl serve did not start in 10 min: ${stdout}${stderr}`)),
        600_000,
      );
      serve.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        // The banner's last line comes after the upstream's, so both are in.
        const match = / at (http:\/\/127\.0\.0\.1:\d+\/v1)\n[\s\S]*Ctrl-C stops/.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      serve.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`trl serve exited with ${code}: ${stdout}${stderr}`));
      });
    });
    client = new OpenAI({ baseURL: url, apiKey: 'none', maxRetries: 0, timeout: 600_000 });
  });
  after(async () => {
    if (!serve || serve.exitCode !== null) return;
    const exited = new Promise<number | null>((resolve) => serve.once('exit', resolve));
    serve.kill('SIGTERM');
    const timer = setTimeout(() => serve.kill('SIGKILL'), 120_000);
    const code = await exited;
    clearTimeout(timer);
    assert.equal(code, 0, `trl serve stops cleanly on SIGTERM: ${stderr}`);
  });

  test('the banner names the local model as the upstream', () => {
    assert.match(stdout, /upstream http:\/\/127\.0\.0\.1:\d+\/v1 \(local model [\w.-]+, \d+ slots?\)/);
  });

  test('a non-streamed request: the model wrote the answer, metered at an allowlisted price', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'auto', messages, tools: [terminalTool], max_tokens: 64 })
      .withResponse();
    const choice = data.choices[0]!;
    assert.ok(choice.finish_reason, 'the answer has a finish reason');
    const usage = data.usage as unknown as {
      cost_usd: number;
      models: string[];
      prompt_tokens: number;
      completion_tokens: number;
      total_tokens: number;
    };
    assert.ok(usage.completion_tokens > 0, 'the model generated tokens');
    assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
    assert.ok(usage.cost_usd > 0 && usage.cost_usd === Number(response.headers.get('x-trl-cost-usd')));
    assert.ok(usage.models.length > 0 && usage.models.every((model) => allowlisted.has(model)), usage.models.join());
    assert.equal(response.headers.get('x-trl-models'), usage.models.join(','));
  });

  test('a streamed request: chunks of the answer, then the usage', async () => {
    const stream = await client.chat.completions.create({
      model: 'auto',
      messages,
      tools: [terminalTool],
      max_tokens: 64,
      stream: true,
      stream_options: { include_usage: true },
    });
    let chunks = 0;
    let finish: string | null = null;
    let usage: { completion_tokens: number; cost_usd?: number } | undefined;
    for await (const chunk of stream) {
      chunks++;
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage as typeof usage;
    }
    assert.ok(chunks > 1, `${chunks} chunks`);
    assert.ok(finish, 'a finish reason');
    assert.ok(usage && usage.completion_tokens > 0 && (usage.cost_usd ?? 0) > 0, JSON.stringify(usage));
  });
});
