// Benchmark: the local model (llama-server with the chosen GGUF on this machine) as an upstream.
//   server        time to first token and decode tokens/s of llama-server itself, streamed, one at a time
//                 (the server's own `timings` give the decode rate; TTFT is measured from send to first token)
//   gateway hop   per-call latency of the gateway in-process (meter, call log, allowlist) over the same
//                 call sent directly, interleaved call by call, against the local model and against the
//                 sim fleet (time scale 0, faults off) — the overhead is the difference of medians
// Per-turn latency through the policy chain and one scenario's wall time and cost come from a run:
// `./trl eval policy/examples/cost-cascade --upstream local-model --scenario NAME`
// (docs/how-to/use-the-local-model.md).
//   node --import tsx bench/local-model.ts [--calls 20] [--tokens 128]
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { renderTable } from '../cli/render-table.ts';
import { CallLog } from '../gateway/call-log.ts';
import { loadAllowlist, type Allowlist } from '../gateway/catalog/allowlist.ts';
import { ModelGateway } from '../gateway/model-gateway.ts';
import { HttpChatUpstream } from '../gateway/upstream/http-chat-upstream.ts';
import { startLocalModel } from '../infra/local-model/local-model-server.ts';
import { summarize } from './latency-stats.ts';
import { startSimFleetProcess, writeFaultFreeCatalog } from './fault-free-sim-fleet.ts';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '20' }, tokens: { type: 'string', default: '128' } },
});
const calls = Number(values.calls);
const tokens = Number(values.tokens);

interface Row {
  what: string;
  p50: string;
  p95: string;
  note: string;
}
const rows: Row[] = [];
const ms = (x: number) => `${x.toFixed(1)} ms`;

const server = await startLocalModel({});
const tmp = await mkdtemp(path.join(os.tmpdir(), 'trl-bench-local-'));
try {
  // The server alone: streamed answers one at a time.
  const ttft: number[] = [];
  const decode: number[] = [];
  const prompt: number[] = [];
  for (let i = 0; i < calls; i++) {
    const sent = performance.now();
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'glm-5.3-flash',
        messages: [{ role: 'user', content: `Write a short paragraph about the number ${i}.` }],
        max_tokens: tokens,
        stream: true,
        stream_options: { include_usage: true },
        cache_prompt: false,
      }),
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let first: number | undefined;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (first === undefined && /"content":"[^"]/.test(text)) first = performance.now();
    }
    if (first !== undefined) ttft.push(first - sent);
    // The last data event with timings (llama-server adds them to its final chunk).
    const timings = [...text.matchAll(/"timings":(\{[^}]*\})/g)]
      .map((m) => JSON.parse(m[1]!) as Record<string, number>)
      .pop();
    if (timings) {
      decode.push(timings.predicted_per_second!);
      prompt.push(timings.prompt_per_second!);
    }
  }
  const t = summarize(ttft);
  rows.push({
    what: 'local server: time to first token',
    p50: ms(t.p50),
    p95: ms(t.p95),
    note: `${t.count} streamed calls, one at a time`,
  });
  const d = summarize(decode);
  rows.push({
    what: 'local server: decode tokens/s',
    p50: d.p50.toFixed(1),
    p95: `(min ${d.min.toFixed(1)})`,
    note: `max_tokens ${tokens}`,
  });
  const p = summarize(prompt);
  rows.push({
    what: 'local server: prompt tokens/s',
    p50: p.p50.toFixed(1),
    p95: `(min ${p.min.toFixed(1)})`,
    note: 'short prompts',
  });

  // The gateway's hop over each upstream, interleaved with direct calls.
  const modelsFile = path.join(tmp, 'models.json');
  await writeFaultFreeCatalog(modelsFile);
  const allowlist: Allowlist = loadAllowlist(modelsFile);
  const fleet = await startSimFleetProcess(modelsFile);
  try {
    for (const [name, baseURL] of [
      ['local model', server.baseURL],
      ['sim fleet', fleet.url],
    ] as const) {
      const client = new HttpChatUpstream({ baseURL, apiKey: 'bench', timeoutMs: 120_000 });
      const direct: number[] = [];
      const through: number[] = [];
      for (let i = 0; i < calls * 2; i++) {
        const body = () => ({
          model: 'glm-5.3-flash',
          messages: [{ role: 'user', content: 'Reply with the word ok.' }],
          max_tokens: 4,
          temperature: 0,
        });
        const a = performance.now();
        await client.chat.completions.create(body() as never);
        direct.push(performance.now() - a);
        const gateway = new ModelGateway({
          allowlist,
          upstream: client,
          capUsd: 0.3,
          callLog: new CallLog(),
          seed: 0,
          retryDelaysMs: [],
        });
        const b = performance.now();
        await gateway.complete(body(), { model: 'glm-5.3-flash' });
        through.push(performance.now() - b);
      }
      client.close();
      const dd = summarize(direct);
      const tt = summarize(through);
      rows.push({
        what: `${name}: call direct`,
        p50: ms(dd.p50),
        p95: ms(dd.p95),
        note: `${dd.count} calls, max_tokens 4`,
      });
      rows.push({
        what: `${name}: call through the gateway`,
        p50: ms(tt.p50),
        p95: ms(tt.p95),
        note: 'in-process ModelGateway',
      });
      rows.push({
        what: `${name}: gateway overhead`,
        p50: ms(tt.p50 - dd.p50),
        p95: '',
        note: 'difference of medians',
      });
    }
  } finally {
    await fleet.close();
  }
} finally {
  await server.stop();
  await rm(tmp, { recursive: true, force: true });
}
const load = os
  .loadavg()
  .map((x) => x.toFixed(1))
  .join(' ');
process.stdout.write(
  renderTable(
    [
      { header: 'figure', value: (r: Row) => r.what, align: 'left' },
      { header: 'p50', value: (r: Row) => r.p50 },
      { header: 'p95', value: (r: Row) => r.p95 },
      { header: 'note', value: (r: Row) => r.note, align: 'left' },
    ],
    rows,
  ) + `\n${server.spec.id}, ${server.slots} slots, ${os.availableParallelism()} cores, load average ${load}\n`,
);
