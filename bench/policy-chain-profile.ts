// Where the policy chain's own CPU goes, per call: sequential calls from an agent in its own process
// (bench/sequential-agent-client.ts) through the agent endpoint → policy host → pass-through policy
// in its sandbox → gateway → an upstream that answers at once (bench/fixed-answer-upstream.ts). This
// process holds only the policy host and the gateway, and the inspector profiles it over the
// measured calls only (start-up, image checks and warm-up left out). Writes the V8 profile and its
// flame graph, and prints the functions with the most time of their own (bench/flame-graph.ts reads
// the profile again with other cuts: --focus, --depth). The profile samples the main thread by the
// clock: a system call's time is in it, with any time the thread waited in it for a core.
//   node --import tsx bench/policy-chain-profile.ts [--calls 2000] [--chars 2000] [--out DIR]
import { Session } from 'node:inspector/promises';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { renderTable } from '../cli/render-table.ts';
import { loadAllowlist } from '../gateway/catalog/allowlist.ts';
import { upstreamClient } from '../workers/model-upstream.ts';
import { callTree, cpuProfileSchema, selfTimeByFunction } from './cpu-profile-tree.ts';
import { startFixedAnswerUpstream } from './fixed-answer-upstream.ts';
import { flameGraphSvg } from './flame-graph-svg.ts';
import { summarize } from './latency-stats.ts';
import { startPassThroughPolicyChain } from './pass-through-policy-chain.ts';
import { startAgentClientProcess } from './sequential-agent-client.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '2000' },
    chars: { type: 'string', default: '2000' },
    out: { type: 'string', default: path.join(os.tmpdir(), 'trl-policy-chain-profile') },
  },
});
const calls = Number(values.calls);
const chars = Number(values.chars);
for (const [name, value] of [
  ['calls', calls],
  ['chars', chars],
] as const) {
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`--${name} must be a whole number of at least 1, not ${JSON.stringify(values[name])}\n`);
    process.exit(64);
  }
}
const warmUpCalls = 100;

const workDir = await mkdtemp(path.join(os.tmpdir(), 'trl-chain-profile-'));
const fixed = await startFixedAnswerUpstream();
const upstream = upstreamClient(fixed.url, 'bench', 60_000);
const run = await startPassThroughPolicyChain({
  allowlist: loadAllowlist(),
  upstream: upstream.client,
  dir: workDir,
  name: 'bench-profile',
});
const session = new Session();
try {
  const client = startAgentClientProcess({ endpointUrl: run.endpoint.url, calls, chars, warmUpCalls });
  await client.warm;
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const cpuBefore = process.cpuUsage();
  const latenciesMs = await client.go();
  const cpu = process.cpuUsage(cpuBefore);
  const { profile } = await session.post('Profiler.stop');

  await mkdir(values.out, { recursive: true });
  const profileFile = path.join(values.out, `policy-chain-${chars}-chars.cpuprofile`);
  const svgFile = path.join(values.out, `policy-chain-${chars}-chars.svg`);
  await writeFile(profileFile, JSON.stringify(profile));
  const tree = callTree([{ label: 'policy chain', profile: cpuProfileSchema.parse(profile) }]);
  const title = `policy host + gateway (this process): ${calls} sequential calls of ${chars} characters`;
  await writeFile(svgFile, flameGraphSvg(tree, { title }));

  const latency = summarize(latenciesMs);
  process.stdout.write(`${title}, an upstream that answers at once\n`);
  process.stdout.write(
    `p50 ${latency.p50.toFixed(2)} ms, p99 ${latency.p99.toFixed(2)} ms (the whole call, upstream and sandbox included); ` +
      `this process's CPU ${((cpu.user + cpu.system) / 1000 / calls).toFixed(2)} ms a call (all threads); its main thread's profile ${(tree.totalMs / calls).toFixed(2)} ms a call\n\n`,
  );
  process.stdout.write(
    `${renderTable(
      [
        { header: 'own µs/call', value: (row) => ((1000 * row.selfMs) / calls).toFixed(1), align: 'right' },
        { header: '%', value: (row) => ((100 * row.selfMs) / tree.totalMs).toFixed(1), align: 'right' },
        { header: 'function', value: (row) => row.name },
        { header: 'where', value: (row) => row.location },
      ],
      selfTimeByFunction(tree).slice(0, 20),
    )}\n\n`,
  );
  process.stdout.write(`profile: ${profileFile}\nflame graph: ${svgFile}\n`);
} finally {
  session.disconnect();
  await run.stop();
  upstream.close();
  await fixed.close();
  await rm(workDir, { recursive: true, force: true });
}
