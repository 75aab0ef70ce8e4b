// Benchmark: latency each hop adds to a model call, every arm against the same sim fleet (time scale
// 0, faults off) in one run, arms interleaved call by call so machine load hits them alike:
//   direct        the sim fleet itself (the baseline subtracted from every other arm)
//   pass-through  a bare Node HTTP proxy (the floor of any extra hop)
//   gateway       the gateway's HTTP face alone (meter, call log to disk, allowlist)
//   gateway+check the same with the run-time injection check on (gateway/injection/), against the
//                 hidden pieces of csv-sales-report, whose words the bench prompt shares
//   policy chain  agent endpoint → policy host → TypeScript policy in its Docker sandbox (a
//                 pass-through policy: one ctx.call) → gateway in-process → sim fleet
//   litellm       LiteLLM's proxy (PyPI litellm[proxy]), installed into .cache by this script
// Added latency = the arm's percentile minus the direct call's percentile, same interleaving.
// --upstream fixed puts an upstream that answers at once (bench/fixed-answer-upstream.ts) in the sim
// fleet's place: at 8 and 32 lanes the sim fleet's own CPU queues every arm and hides the hops.
//   node --import tsx bench/gateway-overhead.ts [--calls 2000] [--no-litellm] [--no-policy] [--upstream sim|fixed]
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import OpenAI from 'openai';
import { loadAllowlist, type Allowlist } from '../gateway/catalog/allowlist.ts';
import { CallLog } from '../gateway/call-log.ts';
import { ModelGateway } from '../gateway/model-gateway.ts';
import { serveGateway } from '../gateway/gateway-server.ts';
import { listenOn } from '../gateway/http/listen.ts';
import { renderTable } from '../cli/render-table.ts';
import { upstreamClient } from '../workers/model-upstream.ts';
import { ensureLitellm, litellmVersion, startLitellm } from './litellm-peer.ts';
import { startSimFleetProcess, writeFaultFreeCatalog } from './fault-free-sim-fleet.ts';
import { startFixedAnswerUpstream } from './fixed-answer-upstream.ts';
import { InjectionGuard, type HiddenPiece } from '../gateway/injection/injection-guard.ts';
import { hiddenContentOf } from '../activities/hidden-content.ts';
import { scenariosDir } from '../common/data-layout.ts';

/** The hidden pieces the check runs against: a real scenario's, read as a sandbox host reads them. */
const hiddenPieces: readonly HiddenPiece[] = await hiddenContentOf(
  path.join(scenariosDir, 'csv-sales-report'),
  'csv-sales-report',
);

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '2000' },
    'no-litellm': { type: 'boolean', default: false },
    'no-policy': { type: 'boolean', default: false },
    'litellm-install-seconds': { type: 'string', default: '300' },
    upstream: { type: 'string', default: 'sim' },
  },
});
if (values.upstream !== 'sim' && values.upstream !== 'fixed') {
  process.stderr.write(`--upstream must be sim or fixed, not ${values.upstream}\n`);
  process.exit(64);
}
const calls = Number(values.calls);
const model = 'glm-5.3-flash';

interface Arm {
  name: string;
  client: OpenAI;
  model: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** A bare pass-through: the request streamed upstream, the answer streamed back, nothing read. */
async function startPassThrough(upstreamUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(upstreamUrl);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((request, response) => {
    const outgoing = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
        agent,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    outgoing.on('error', () => response.destroy());
    request.pipe(outgoing);
  });
  const listening = await listenOn(server, '127.0.0.1');
  return {
    url: listening.url,
    close: async () => {
      agent.destroy();
      await listening.close();
    },
  };
}

function promptOf(characters: number, salt: string): string {
  const words = 'the quick brown fox reads a csv file, sums the sales column and writes report.json; ';
  return `${salt} ${words.repeat(Math.ceil(characters / words.length))}`.slice(0, characters);
}

/** `callsPerArm` calls per arm over `concurrency` lanes; each lane runs every arm in turn, rotating the order. */
async function measure(
  arms: Arm[],
  callsPerArm: number,
  concurrency: number,
  promptCharacters: number,
): Promise<Map<string, number[]>> {
  const times = new Map(arms.map((arm) => [arm.name, [] as number[]]));
  const failures = new Map<string, string>();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let round = next++; round < callsPerArm; round = next++) {
        for (let offset = 0; offset < arms.length; offset++) {
          const arm = arms[(round + offset) % arms.length]!;
          const content = promptOf(promptCharacters, `call ${round}`);
          const started = performance.now();
          try {
            await arm.client.chat.completions.create({
              model: arm.model,
              messages: [{ role: 'user', content }],
              max_tokens: 64,
            });
            times.get(arm.name)!.push(performance.now() - started);
          } catch (error) {
            failures.set(arm.name, (error as Error).message);
          }
        }
      }
    }),
  );
  for (const [name, message] of failures)
    process.stderr.write(`${name}: some calls failed (not timed), e.g. ${message}\n`);
  for (const list of times.values()) list.sort((a, b) => a - b);
  return times;
}

/**
 * The gateway's own work per call with the network taken out: ModelGateway.complete in process
 * against an upstream that answers at once (meter, estimate, reservation, call-log rows to disk).
 * CPU time is what load on a shared machine disturbs least.
 */
async function ownWorkPerCall(
  allowlist: Allowlist,
  dir: string,
  promptCharacters: number,
  count: number,
  check: boolean,
): Promise<{ wallMs: number; cpuMs: number }> {
  const answer = {
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content: 'done: report.json written' }, finish_reason: 'stop' },
    ],
    usage: { prompt_tokens: Math.ceil(promptCharacters / 4), completion_tokens: 8 },
  };
  const upstream = { chat: { completions: { create: async () => answer } } } as unknown as OpenAI;
  const callLog = new CallLog(path.join(dir, `own-${promptCharacters}-${check ? 'check' : 'plain'}.jsonl`));
  const gateway = new ModelGateway({
    allowlist,
    upstream,
    capUsd: 1e6,
    callLog,
    seed: 0,
    ...(check ? { requestGuard: new InjectionGuard(hiddenPieces) } : {}),
  });
  const run = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await gateway.complete(
        { messages: [{ role: 'user', content: promptOf(promptCharacters, `call ${i}`) }], max_tokens: 64 },
        { model },
      );
      if (i % 16 === 15) await new Promise((resolve) => setImmediate(resolve)); // let the log flush, as between real calls
    }
  };
  await run(Math.min(200, count));
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await run(count);
  const wallMs = (performance.now() - started) / count;
  const cpu = process.cpuUsage(cpuBefore);
  await callLog.close();
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 / count };
}

interface Row {
  arm: string;
  concurrency: number;
  prompt: number;
  timed: number;
  p50: number;
  p95: number;
  p99: number;
}

function addedRows(times: Map<string, number[]>, concurrency: number, prompt: number): Row[] {
  const direct = times.get('direct')!;
  return [...times].map(([arm, list]) => ({
    arm,
    concurrency,
    prompt,
    timed: list.length,
    p50: percentile(list, 50) - (arm === 'direct' ? 0 : percentile(direct, 50)),
    p95: percentile(list, 95) - (arm === 'direct' ? 0 : percentile(direct, 95)),
    p99: percentile(list, 99) - (arm === 'direct' ? 0 : percentile(direct, 99)),
  }));
}

const workDir = await mkdtemp(path.join(os.tmpdir(), 'trl-gateway-bench-'));
const modelsFile = path.join(workDir, 'models.json');
await writeFaultFreeCatalog(modelsFile);
const allowlist: Allowlist = loadAllowlist(modelsFile);
const closers: (() => Promise<unknown>)[] = [];
const notes: string[] = [];
// Interrupted: still stop the policy's container, LiteLLM and the sim fleet.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.allSettled(closers.reverse().map((close) => close())).finally(() => process.exit(130));
  });
}
try {
  const fleet = values.upstream === 'fixed' ? await startFixedAnswerUpstream() : await startSimFleetProcess(modelsFile);
  closers.push(() => fleet.close());
  // The agent's side of every arm is the stock OpenAI client; the gateway's upstream client is the worker's.
  const arms: Arm[] = [
    { name: 'direct', client: new OpenAI({ baseURL: fleet.url, apiKey: 'sim', maxRetries: 0 }), model },
  ];
  const gatewayUpstream = upstreamClient(fleet.url, 'sim', 60_000);
  closers.push(async () => gatewayUpstream.close());
  const upstream = gatewayUpstream.client;

  const passThrough = await startPassThrough(fleet.url);
  closers.push(() => passThrough.close());
  arms.push({
    name: 'pass-through',
    client: new OpenAI({ baseURL: passThrough.url, apiKey: 'sim', maxRetries: 0 }),
    model,
  });

  const callLog = new CallLog(path.join(workDir, 'gateway', 'model-calls.jsonl'));
  const gateway = new ModelGateway({ allowlist, upstream, capUsd: 1e6, callLog, seed: 0 });
  const token = 'bench-episode-token';
  const gatewayServer = await serveGateway(gateway, { host: '127.0.0.1', token });
  closers.push(async () => {
    await gatewayServer.close();
    await callLog.close();
  });
  arms.push({
    name: 'gateway',
    client: new OpenAI({ baseURL: gatewayServer.url, apiKey: token, maxRetries: 0 }),
    model,
  });
  const checkedLog = new CallLog(path.join(workDir, 'gateway-check', 'model-calls.jsonl'));
  const checked = new ModelGateway({
    allowlist,
    upstream,
    capUsd: 1e6,
    callLog: checkedLog,
    seed: 0,
    requestGuard: new InjectionGuard(hiddenPieces),
  });
  const checkedServer = await serveGateway(checked, { host: '127.0.0.1', token });
  closers.push(async () => {
    await checkedServer.close();
    await checkedLog.close();
  });
  arms.push({
    name: 'gateway+check',
    client: new OpenAI({ baseURL: checkedServer.url, apiKey: token, maxRetries: 0 }),
    model,
  });

  if (!values['no-policy']) {
    // Imported here so --no-policy runs without Docker.
    const { startPassThroughPolicyChain } = await import('./pass-through-policy-chain.ts');
    const run = await startPassThroughPolicyChain({
      allowlist,
      upstream,
      dir: path.join(workDir, 'policy'),
      name: 'bench-gateway',
    });
    closers.push(() => run.stop());
    arms.push({
      name: 'policy chain',
      client: new OpenAI({ baseURL: run.endpoint.url, apiKey: 'none', maxRetries: 0 }),
      model: 'auto',
    });
  } else {
    notes.push('policy chain: skipped (--no-policy)');
  }

  if (!values['no-litellm']) {
    const installStarted = performance.now();
    const found = await ensureLitellm(Number(values['litellm-install-seconds']) * 1000);
    if ('reason' in found) {
      notes.push(`litellm: not installed — ${found.reason}`);
    } else {
      const installSeconds = (performance.now() - installStarted) / 1000;
      if (installSeconds > 5)
        notes.push(`litellm ${litellmVersion}: installed into .cache in ${installSeconds.toFixed(0)} s`);
      const port = 40_000 + (process.pid % 20_000);
      try {
        const proxy = await startLitellm(found.executable, { upstreamUrl: fleet.url, models: [model], port, workDir });
        closers.push(() => proxy.close());
        arms.push({
          name: `litellm ${litellmVersion}`,
          client: new OpenAI({ baseURL: proxy.url, apiKey: proxy.apiKey, maxRetries: 0 }),
          model,
        });
      } catch (error) {
        notes.push(`litellm: installed but did not start — ${(error as Error).message}`);
      }
    }
  } else {
    notes.push('litellm: skipped (--no-litellm)');
  }

  const ownRows: { prompt: number; check: string; wallMs: number; cpuMs: number }[] = [];
  for (const prompt of [300, 2000, 6000, 50_000])
    for (const check of [false, true])
      ownRows.push({
        prompt,
        check: check ? 'on' : 'off',
        ...(await ownWorkPerCall(allowlist, workDir, prompt, calls, check)),
      });

  const warmUp = Math.min(100, calls);
  await measure(arms, warmUp, 1, 2000);
  const rows: Row[] = [];
  for (const concurrency of [1, 8, 32])
    rows.push(...addedRows(await measure(arms, calls, concurrency, 2000), concurrency, 2000));
  const sizeCalls = Math.max(50, Math.round(calls / 4));
  const sizeRows: Row[] = [];
  for (const prompt of [300, 2000, 6000, 50_000])
    sizeRows.push(...addedRows(await measure(arms, sizeCalls, 1, prompt), 1, prompt));

  const columns = [
    { header: 'arm', value: (r: Row) => r.arm },
    { header: 'conc', value: (r: Row) => r.concurrency, align: 'right' as const },
    { header: 'prompt chars', value: (r: Row) => r.prompt, align: 'right' as const },
    { header: 'timed', value: (r: Row) => r.timed, align: 'right' as const },
    { header: 'p50 ms', value: (r: Row) => r.p50.toFixed(2), align: 'right' as const },
    { header: 'p95 ms', value: (r: Row) => r.p95.toFixed(2), align: 'right' as const },
    { header: 'p99 ms', value: (r: Row) => r.p99.toFixed(2), align: 'right' as const },
  ];
  const upstreamText =
    values.upstream === 'fixed'
      ? 'an upstream answering at once (bench/fixed-answer-upstream.ts)'
      : 'sim fleet at time scale 0, faults off';
  process.stdout.write(
    `${upstreamText}, ${model}, non-streamed, max_tokens 64; ${calls} calls per arm interleaved (${warmUp} warm-up first).\n`,
  );
  process.stdout.write(
    'Rows "direct" are absolute latency; every other row is added latency (arm percentile − direct percentile).\n\n',
  );
  process.stdout.write(
    `${renderTable(columns, rows)}\n\nBy prompt size, concurrency 1, ${sizeCalls} calls per arm:\n\n${renderTable(columns, sizeRows)}\n`,
  );
  process.stdout.write(
    `\nThe gateway's own work per call (ModelGateway.complete in process, upstream answering at once, ${calls} calls;\n` +
      `the injection check against the ${hiddenPieces.length} hidden pieces of csv-sales-report):\n\n`,
  );
  process.stdout.write(
    `${renderTable(
      [
        { header: 'prompt chars', value: (r: (typeof ownRows)[number]) => r.prompt, align: 'right' },
        { header: 'injection check', value: (r: (typeof ownRows)[number]) => r.check },
        { header: 'wall ms/call', value: (r: (typeof ownRows)[number]) => r.wallMs.toFixed(3), align: 'right' },
        { header: 'CPU ms/call', value: (r: (typeof ownRows)[number]) => r.cpuMs.toFixed(3), align: 'right' },
      ],
      ownRows,
    )}\n`,
  );
  for (const note of notes) process.stdout.write(`${note}\n`);
} finally {
  for (const close of closers.reverse())
    await close().catch((error: unknown) => process.stderr.write(`cleanup: ${(error as Error).message}\n`));
  await rm(workDir, { recursive: true, force: true });
}
