// The machine's floor under every hop of the policy chain: one message's round trip over a unix
// socket to an echo in this process's event loop, and to an echo in another process. The second
// pays for waking the other process, which is what each hop between the agent, the policy host,
// the policy and the upstream costs; machines differ most in it (see docs/figures/policy-chain-profile.md,
// where the chain's time goes, drawn).
//   node --import tsx bench/process-round-trip.ts [--round-trips 5000] [--bytes 2048]
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { renderTable } from '../cli/render-table.ts';
import { summarize, type LatencySummary } from './latency-stats.ts';

const { values } = parseArgs({
  options: { 'round-trips': { type: 'string', default: '5000' }, bytes: { type: 'string', default: '2048' } },
});
const roundTrips = Number(values['round-trips']);
const bytes = Number(values.bytes);
if (!Number.isInteger(roundTrips) || roundTrips < 1 || !Number.isInteger(bytes) || bytes < 1 || bytes > 1 << 20) {
  process.stderr.write('--round-trips must be a whole number of at least 1, --bytes one from 1 to 1048576\n');
  process.exit(64);
}

/** Writes back whatever it reads: the echo of both arms (in the child, as plain CommonJS via -e). */
const echo = (socket: net.Socket) => socket.on('data', (chunk) => socket.write(chunk));
const childEchoSource =
  "require('node:net').createServer((s) => s.on('data', (d) => s.write(d))).listen(process.argv[1], () => process.stdout.write('ready\\n'))";

async function measure(socketPath: string): Promise<{ latenciesUs: number[]; cpuUsPerRoundTrip: number }> {
  const socket = net.connect(socketPath);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.setNoDelay(true);
  const message = Buffer.alloc(bytes, 120);
  let pending: { left: number; done: () => void } | undefined;
  socket.on('data', (chunk: Buffer) => {
    if (!pending) return;
    pending.left -= chunk.length;
    if (pending.left <= 0) pending.done();
  });
  const once = () =>
    new Promise<void>((resolve) => {
      pending = { left: bytes, done: resolve };
      socket.write(message);
    });
  for (let i = 0; i < 200; i++) await once();
  const latenciesUs: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < roundTrips; i++) {
    const started = performance.now();
    await once();
    latenciesUs.push((performance.now() - started) * 1000);
  }
  const cpu = process.cpuUsage(cpuBefore);
  socket.destroy();
  return { latenciesUs, cpuUsPerRoundTrip: (cpu.user + cpu.system) / roundTrips };
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-round-trip-'));
const rows: { arm: string; latency: LatencySummary; cpuUsPerRoundTrip: number }[] = [];
const summarized = (arm: string, measured: { latenciesUs: number[]; cpuUsPerRoundTrip: number }) => ({
  arm,
  latency: summarize(measured.latenciesUs),
  cpuUsPerRoundTrip: measured.cpuUsPerRoundTrip,
});
try {
  const localPath = path.join(dir, 'local.sock');
  const local = net.createServer(echo);
  await new Promise<void>((resolve) => local.listen(localPath, resolve));
  rows.push(summarized('echo in this process (same event loop)', await measure(localPath)));
  await new Promise<void>((resolve) => local.close(() => resolve()));

  const childPath = path.join(dir, 'child.sock');
  const child = spawn(process.execPath, ['-e', childEchoSource, childPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`the echo process exited with code ${code}`)));
    });
    rows.push(summarized('echo in another process', await measure(childPath)));
  } finally {
    child.kill('SIGTERM');
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

process.stdout.write(
  `${roundTrips} round trips of ${bytes} bytes over a unix socket, after 200 of warm-up, ${os.cpus().length} cores\n\n`,
);
process.stdout.write(
  `${renderTable(
    [
      { header: 'arm', value: (row: (typeof rows)[number]) => row.arm },
      { header: 'p50 µs', value: (row: (typeof rows)[number]) => row.latency.p50.toFixed(1), align: 'right' },
      { header: 'p99 µs', value: (row: (typeof rows)[number]) => row.latency.p99.toFixed(1), align: 'right' },
      {
        header: 'this process CPU µs per round trip',
        value: (row: (typeof rows)[number]) => row.cpuUsPerRoundTrip.toFixed(1),
        align: 'right',
      },
    ],
    rows,
  )}\n`,
);
