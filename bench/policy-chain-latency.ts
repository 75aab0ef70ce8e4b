// Benchmark: latency added per call by the policy host + gateway, next to calling the sim fleet
// directly, and the calls per second one worker sustains through the whole chain. One run, one table.
//   node --import tsx bench/policy-chain-latency.ts [--calls N] [--concurrency C] [--seconds S]
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import OpenAI from 'openai';
import { repoRoot } from '../common/data-layout.ts';
import { createDockerClient } from '../sandbox/docker-client.ts';
import { bootstrap } from '../infra/bootstrap.ts';
import { currentWorkerIdentity } from '../sandbox/worker-identity.ts';
import { loadAllowlist } from '../gateway/catalog/allowlist.ts';
import { readPackDirectory } from '../packs/read-pack.ts';
import { bundlePack } from '../packs/bundle-pack.ts';
import { startPolicyRun } from '../policy/host/policy-run.ts';
import { startSimFleet } from '../simfleet/sim-fleet-server.ts';
import { renderTable } from '../cli/render-table.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '10' },
  },
});
const calls = Number(values.calls);
const concurrency = Number(values.concurrency);
const seconds = Number(values.seconds);

let failures = 0;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeCalls(
  client: OpenAI,
  model: string,
  body: { messages: { role: 'user'; content: string }[] },
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    // The sim fleet injects its profile's 429s and 5xx; those calls are counted, not timed.
    const ok = await client.chat.completions
      .create({ model, messages: [{ role: 'user', content: `${body.messages[0]!.content} #${i}` }], max_tokens: 64 })
      .then(
        () => true,
        () => false,
      );
    if (ok) times.push(performance.now() - started);
    else failures += 1;
  }
  return times.sort((a, b) => a - b);
}

async function throughput(client: OpenAI, model: string): Promise<number> {
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, lane) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const ok = await client.chat.completions
          .create({ model, messages: [{ role: 'user', content: `lane ${lane} call ${i}` }], max_tokens: 64 })
          .then(
            () => true,
            () => false,
          );
        if (ok) done += 1;
      }
    }),
  );
  return done / seconds;
}

const docker = createDockerClient();
const stack = await bootstrap(docker);
const fleet = await startSimFleet({ timeScale: 0, mode: 'fast' });
const upstream = new OpenAI({ baseURL: fleet.url, apiKey: 'x', maxRetries: 0 });
const bundle = await bundlePack(await readPackDirectory(path.join(repoRoot, 'policy', 'examples', 'single-model')));
const run = await startPolicyRun({
  docker,
  owner: currentWorkerIdentity(),
  workflowId: `bench-${process.pid}`,
  scenario: 'bench',
  policyImage: stack.policyImage,
  bundleCode: bundle.code,
  allowlist: loadAllowlist(),
  upstream,
  capUsd: 100,
  seed: 0,
  dir: await mkdtemp(path.join(os.tmpdir(), 'trl-bench-')),
  bindHost: '127.0.0.1',
  requestTimeoutMs: 60_000,
});
const chain = new OpenAI({ baseURL: run.endpoint.url, apiKey: 'none', maxRetries: 0 });
const prompt = {
  messages: [
    { role: 'user' as const, content: (await readFile(path.join(repoRoot, 'README.md'), 'utf8')).slice(0, 2000) },
  ],
};
try {
  await timeCalls(upstream, 'glm-5.2', prompt); // warm both paths before measuring
  await timeCalls(chain, 'auto', prompt);
  const direct = await timeCalls(upstream, 'glm-5.2', prompt);
  const through = await timeCalls(chain, 'auto', prompt);
  const directRate = await throughput(upstream, 'glm-5.2');
  const chainRate = await throughput(chain, 'auto');
  const rows = [
    { path: 'sim fleet directly', p50: percentile(direct, 50), p99: percentile(direct, 99), rate: directRate },
    {
      path: 'agent → policy host (sandbox) → gateway → sim fleet',
      p50: percentile(through, 50),
      p99: percentile(through, 99),
      rate: chainRate,
    },
    {
      path: 'added by policy host + gateway',
      p50: percentile(through, 50) - percentile(direct, 50),
      p99: percentile(through, 99) - percentile(direct, 99),
      rate: Number.NaN,
    },
  ];
  process.stdout.write(
    `${calls} sequential calls per path (max_tokens 64, ~2 kB prompt, sim time scale 0); throughput over ${seconds}s at concurrency ${concurrency}; ${failures} injected upstream errors not timed\n\n`,
  );
  process.stdout.write(
    renderTable(
      [
        { header: 'path', value: (r) => r.path },
        { header: 'p50 ms', value: (r) => r.p50.toFixed(2), align: 'right' },
        { header: 'p99 ms', value: (r) => r.p99.toFixed(2), align: 'right' },
        { header: 'calls/s', value: (r) => (Number.isNaN(r.rate) ? '' : r.rate.toFixed(0)), align: 'right' },
      ],
      rows,
    ) + '\n',
  );
} finally {
  await run.stop();
  await fleet.close();
}
