// An agent's side of a profiled chain, in a process of its own so that its request building and
// HTTP client are not in the profile: sequential POSTs of chat completions of a given size on one
// kept-alive socket. It warms up, says `warm`, waits for `go` on stdin, sends the measured calls,
// and prints their latencies as one JSON line.
//   node --import tsx bench/sequential-agent-client.ts URL CALLS CHARS WARM-UP-CALLS
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { repoRoot } from '../common/data-layout.ts';

const thisFile = fileURLToPath(import.meta.url);
const words = 'the quick brown fox reads a csv file, sums the sales column and writes report.json; ';
/** Distinct bodies, built before the calls and reused in turn. */
const bodyPoolSize = 32;

function requestBody(index: number, chars: number): string {
  const content = `call ${index} ${words.repeat(Math.ceil(chars / words.length))}`.slice(0, chars);
  return JSON.stringify({ model: 'auto', messages: [{ role: 'user', content }], max_tokens: 64 });
}

function post(agent: http.Agent, url: URL, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode === 200 ? resolve() : reject(new Error(`the chain answered HTTP ${response.statusCode}`)),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function runClient([endpoint, callsText, charsText, warmUpText]: string[]): Promise<void> {
  const url = new URL(`${endpoint}/chat/completions`);
  const [calls, chars, warmUpCalls] = [callsText, charsText, warmUpText].map(Number) as [number, number, number];
  const bodies = Array.from({ length: bodyPoolSize }, (_, i) => requestBody(i, chars));
  const agent = new http.Agent({ keepAlive: true });
  for (let i = 0; i < warmUpCalls; i++) await post(agent, url, bodies[i % bodyPoolSize]!);
  const lines = readline.createInterface({ input: process.stdin });
  process.stdout.write('warm\n');
  let told = false;
  for await (const line of lines) {
    if (line === 'go') {
      told = true;
      break;
    }
  }
  // Input closed without `go`: the profiling process is gone, and nothing is left to measure.
  if (!told) process.exit(1);
  const latenciesMs: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await post(agent, url, bodies[i % bodyPoolSize]!);
    latenciesMs.push(performance.now() - started);
  }
  process.stdout.write(`${JSON.stringify({ latenciesMs })}\n`);
  agent.destroy();
  lines.close();
}

export interface AgentClientProcess {
  /** Resolves once the warm-up calls are done and the client waits for `go`. */
  warm: Promise<void>;
  /** Sends the measured calls; resolves with their latencies. */
  go(): Promise<number[]>;
}

export function startAgentClientProcess(options: {
  endpointUrl: string;
  calls: number;
  chars: number;
  warmUpCalls: number;
}): AgentClientProcess {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      thisFile,
      options.endpointUrl,
      String(options.calls),
      String(options.chars),
      String(options.warmUpCalls),
    ],
    {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  // A failed client ends the wait at once; a clean exit after its last line is read as the end of
  // its output, so the 'exit' event cannot win a race against that line.
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the agent client exited with code ${code} before it finished`));
    }),
  );
  exited.catch(() => undefined);
  const output = readline.createInterface({ input: child.stdout });
  const lines = output[Symbol.asyncIterator]();
  const nextLine = async () => {
    const next = await Promise.race([lines.next(), exited]);
    if (next.done) throw new Error('the agent client closed its output');
    return next.value;
  };
  return {
    warm: nextLine().then((line) => {
      if (line !== 'warm') throw new Error(`the agent client said ${JSON.stringify(line)} instead of warm`);
    }),
    async go() {
      child.stdin.end('go\n');
      const result = z.object({ latenciesMs: z.array(z.number()) }).parse(JSON.parse(await nextLine()));
      return result.latenciesMs;
    },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === thisFile) await runClient(process.argv.slice(2));
