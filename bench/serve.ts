// Benchmark: what `trl serve` adds over calling the upstream directly, at concurrency 1, 8 and 32,
// on the sim fleet (its own process, time scale 0, faults off), in one run. The served pack is
// `single-model` (every request to kimi-k3, unchanged), so both arms ask the same model the same
// thing; each served request crosses the front server, the conversation's policy sandbox and its
// metered gateway. Lanes spread over `--instances` conversations (a conversation runs one request at
// a time, as the pool defines it), so past that the served arm queues by design.
//   node --import tsx bench/serve.ts [--calls N] [--instances N] [--concurrency 1,8,32]
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import OpenAI from 'openai';
import { examplesDir } from '../common/data-layout.ts';
import { createDockerClient } from '../sandbox/docker-client.ts';
import { bootstrap } from '../infra/bootstrap.ts';
import { readPackDirectory } from '../packs/read-pack.ts';
import { startServing } from '../workers/serve-policy.ts';
import { renderTable } from '../cli/render-table.ts';
import { startSimFleetProcess, writeFaultFreeCatalog } from './fault-free-sim-fleet.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '400' },
    instances: { type: 'string', default: '8' },
    concurrency: { type: 'string', default: '1,8,32' },
  },
});
const calls = Number(values.calls);
const instances = Number(values.instances);
const levels = values.concurrency!.split(',').map(Number);
process.env.TRL_QUIET ??= '1';
process.env.TRL_LOG_LEVEL ??= 'error';

interface Arm {
  name: string;
  client: OpenAI;
  model: string;
}

interface Measured {
  times: number[];
  failures: number;
  wallMs: number;
}

function percentile(sorted: number[], share: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]! : Number.NaN;
}

/** `calls` requests over `concurrency` lanes; lane i is conversation i mod instances. */
async function measure(arm: Arm, concurrency: number): Promise<Measured> {
  const times: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, lane) => {
      for (let index = next++; index < calls; index = next++) {
        const begun = performance.now();
        try {
          await arm.client.chat.completions.create(
            {
              model: arm.model,
              messages: [
                {
                  role: 'user',
                  content: `lane ${lane} call ${index}: sum the sales column of data.csv and write report.json`,
                },
              ],
              max_tokens: 64,
            },
            { headers: { 'x-trl-session': `bench-${lane % instances}` } },
          );
          times.push(performance.now() - begun);
        } catch {
          failures += 1;
        }
      }
    }),
  );
  return { times: times.sort((a, b) => a - b), failures, wallMs: performance.now() - started };
}

const scratch = await mkdtemp(path.join(os.tmpdir(), 'trl-bench-serve-'));
const catalog = path.join(scratch, 'models.json');
await writeFaultFreeCatalog(catalog);
const fleet = await startSimFleetProcess(catalog);
const docker = createDockerClient();
const stack = await bootstrap(docker);
const upstream = new OpenAI({ baseURL: fleet.url, apiKey: 'x', maxRetries: 0 });
const serving = await startServing({
  pack: await readPackDirectory(path.join(examplesDir, 'single-model')),
  docker,
  policyImage: stack.policyImage,
  sidecarImage: stack.sidecarImage,
  upstream,
  settings: {
    host: '127.0.0.1',
    port: 0,
    maxInstances: instances,
    idleSec: 600,
    instanceCapUsd: 1000,
    requestTimeoutSec: 120,
    drainSec: 60,
  },
});
const arms: Arm[] = [
  { name: 'upstream direct', client: upstream, model: 'kimi-k3' },
  {
    name: 'trl serve',
    client: new OpenAI({ baseURL: serving.server.url, apiKey: 'none', maxRetries: 0, timeout: 180_000 }),
    model: 'auto',
  },
];
const rows: {
  arm: string;
  concurrency: number;
  p50: number;
  p99: number;
  rate: number;
  failures: number;
  added?: boolean;
}[] = [];
try {
  // Warm-up: every conversation's instance started, both paths' connections open.
  for (const arm of arms)
    await Promise.all(
      Array.from({ length: instances }, (_, lane) =>
        arm.client.chat.completions.create(
          { model: arm.model, messages: [{ role: 'user', content: 'warm up' }], max_tokens: 8 },
          { headers: { 'x-trl-session': `bench-${lane}` } },
        ),
      ),
    );
  for (const concurrency of levels) {
    const [direct, served] = [await measure(arms[0]!, concurrency), await measure(arms[1]!, concurrency)];
    for (const [arm, result] of [
      [arms[0]!, direct],
      [arms[1]!, served],
    ] as const) {
      rows.push({
        arm: arm.name,
        concurrency,
        p50: percentile(result.times, 0.5),
        p99: percentile(result.times, 0.99),
        rate: (result.times.length / result.wallMs) * 1000,
        failures: result.failures,
      });
    }
    rows.push({
      arm: 'added by trl serve',
      concurrency,
      p50: percentile(served.times, 0.5) - percentile(direct.times, 0.5),
      p99: percentile(served.times, 0.99) - percentile(direct.times, 0.99),
      rate: Number.NaN,
      failures: 0,
      added: true,
    });
  }
} finally {
  await serving.close();
  await fleet.close();
  await rm(scratch, { recursive: true, force: true });
}

process.stdout.write(
  `${calls} calls per arm and concurrency (arms one after the other), ${instances} conversations (policy instances), kimi-k3, max_tokens 64, sim fleet at time scale 0, faults off; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}\n\n`,
);
process.stdout.write(
  renderTable<(typeof rows)[number]>(
    [
      { header: 'arm', value: (r) => r.arm },
      { header: 'concurrency', value: (r) => r.concurrency, align: 'right' },
      { header: 'p50 ms', value: (r) => r.p50.toFixed(2), align: 'right' },
      { header: 'p99 ms', value: (r) => r.p99.toFixed(2), align: 'right' },
      { header: 'requests/s', value: (r) => (Number.isNaN(r.rate) ? '' : r.rate.toFixed(0)), align: 'right' },
      { header: 'failed', value: (r) => (r.added ? '' : r.failures), align: 'right' },
    ],
    rows,
  ) + '\n',
);
