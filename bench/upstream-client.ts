// Benchmark: the gateway's upstream client beside the OpenAI SDK's and a bare node:http POST, all
// against one upstream that answers at once (bench/fixed-answer-upstream.ts, its own process),
// calls interleaved arm by arm so machine load hits them alike. Each arm sends the same 2 k-character
// chat request and parses the answer; the gateway's arm is the client the worker uses
// (gateway/upstream/http-chat-upstream.ts), with an abort signal as the gateway passes one.
//   node --import tsx bench/upstream-client.ts [--calls 3000]
import http from 'node:http';
import { parseArgs } from 'node:util';
import OpenAI from 'openai';
import { HttpChatUpstream } from '../gateway/upstream/http-chat-upstream.ts';
import { renderTable } from '../cli/render-table.ts';
import { startFixedAnswerUpstream } from './fixed-answer-upstream.ts';
import { summarize, type LatencySummary } from './latency-stats.ts';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '3000' } } });
const calls = Number(values.calls);
if (!Number.isInteger(calls) || calls < 1) {
  process.stderr.write(`--calls must be a positive integer, not ${values.calls}\n`);
  process.exit(64);
}

const words = 'the quick brown fox reads a csv file, sums the sales column and writes report.json; ';
const requestOf = (i: number) => ({
  model: 'glm-5.3-flash',
  messages: [{ role: 'user' as const, content: `call ${i} ${words.repeat(25)}`.slice(0, 2000) }],
  max_tokens: 64,
  seed: 0,
});

const upstream = await startFixedAnswerUpstream();
const agent = new http.Agent({ keepAlive: true });
const gatewayClient = new HttpChatUpstream({ baseURL: upstream.url, apiKey: 'bench', timeoutMs: 30_000 });
const sdk = new OpenAI({ baseURL: upstream.url, apiKey: 'bench', maxRetries: 0, timeout: 30_000 });

/** The floor: one POST on a keep-alive agent, the answer read and parsed, nothing else. */
function barePost(body: object): Promise<unknown> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${upstream.url}/chat/completions`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(text);
  });
}

const arms: { name: string; call(i: number): Promise<unknown> }[] = [
  { name: 'bare node:http POST', call: (i) => barePost(requestOf(i)) },
  {
    name: 'gateway client (HttpChatUpstream)',
    call: (i) =>
      (
        gatewayClient.chat.completions.create(requestOf(i), { signal: new AbortController().signal }) as ReturnType<
          HttpChatUpstream['chat']['completions']['create']
        >
      ).withResponse(),
  },
  {
    name: 'OpenAI SDK (its own fetch)',
    call: (i) => sdk.chat.completions.create(requestOf(i), { signal: new AbortController().signal }).withResponse(),
  },
];

const warmUp = Math.min(500, calls);
const samples = new Map(arms.map((arm) => [arm.name, [] as number[]]));
const cpuMicros = new Map(arms.map((arm) => [arm.name, 0]));
try {
  for (let i = 0; i < warmUp + calls; i++) {
    for (let k = 0; k < arms.length; k++) {
      const arm = arms[(i + k) % arms.length]!;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await arm.call(i);
      const elapsed = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      if (i < warmUp) continue;
      samples.get(arm.name)!.push(elapsed);
      cpuMicros.set(arm.name, cpuMicros.get(arm.name)! + cpu.user + cpu.system);
    }
  }
} finally {
  gatewayClient.close();
  agent.destroy();
  await upstream.close();
}

const rows = arms.map((arm) => ({
  name: arm.name,
  ...summarize(samples.get(arm.name)!),
  cpuMs: cpuMicros.get(arm.name)! / 1000 / calls,
}));
const ms = (value: number) => value.toFixed(3);
process.stdout.write(
  `${calls} calls per arm after ${warmUp} warm-up, interleaved; 2,000-character prompt; answer parsed; wall and this process's CPU per call.\n\n`,
);
process.stdout.write(
  `${renderTable<(typeof rows)[number] & LatencySummary>(
    [
      { header: 'client', value: (r) => r.name },
      { header: 'p50 ms', value: (r) => ms(r.p50), align: 'right' },
      { header: 'p95 ms', value: (r) => ms(r.p95), align: 'right' },
      { header: 'p99 ms', value: (r) => ms(r.p99), align: 'right' },
      { header: 'CPU ms/call', value: (r) => ms(r.cpuMs), align: 'right' },
    ],
    rows,
  )}\n`,
);
