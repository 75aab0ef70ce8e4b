// The model upstream the gateway calls: a configured OpenAI-compatible service (Engy in
// production, its key only in the worker's environment), the local model (a real small model in
// llama-server on loopback, TRL_UPSTREAM=local-model), or else the sim fleet in its own process.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../common/data-layout.ts';
import type { ChatUpstream } from '../gateway/upstream/chat-upstream.ts';
import { HttpChatUpstream } from '../gateway/upstream/http-chat-upstream.ts';
import { simFleetTimeScaleOf, type WorkerConfig } from './worker-config.ts';
import { readSetting } from '../common/settings/setting.ts';
import { moneySettings } from '../common/settings/money-settings.ts';
import { localModelOptionsFromEnv, startLocalModel } from '../infra/local-model/local-model-server.ts';

export interface ModelUpstream {
  client: ChatUpstream;
  description: string;
  /** Why the pre-evaluation's LLM judge is not asked on this upstream; absent: it is. */
  judgeSkipped?: string;
  close(): Promise<void>;
}

/** The gateway's client of an OpenAI-compatible upstream: no retries of its own (the gateway retries), node:http
 * underneath (gateway/upstream/http-chat-upstream.ts). */
export function upstreamClient(
  baseURL: string,
  apiKey: string,
  timeoutMs: number,
): { client: ChatUpstream; close(): void } {
  const client = new HttpChatUpstream({ baseURL, apiKey, timeoutMs });
  return { client, close: () => client.close() };
}

/** The least time a call to the local model may take (TRL_UPSTREAM_TIMEOUT_SEC when larger). */
export const localModelTimeoutMs = 900_000;

export async function startModelUpstream(config: WorkerConfig): Promise<ModelUpstream> {
  const timeout = config.TRL_UPSTREAM_TIMEOUT_SEC * 1000;
  if (config.TRL_UPSTREAM_BASE_URL) {
    const upstream = upstreamClient(config.TRL_UPSTREAM_BASE_URL, config.TRL_UPSTREAM_API_KEY ?? '', timeout);
    return { client: upstream.client, description: config.TRL_UPSTREAM_BASE_URL, close: async () => upstream.close() };
  }
  if (config.TRL_UPSTREAM === 'local-model') {
    const server = await startLocalModel(localModelOptionsFromEnv());
    // The server answers every allowlisted name with its one model (local-model-catalog.ts); no key. A call waits at
    // least localModelTimeoutMs: on 2 shared cores Hermes' first answer (its 2–6 k-token opening, prefilled, then up to
    // 4,096 tokens) took longer than the 120 s a provider gets, with three scenarios queued on two slots.
    const upstream = upstreamClient(server.baseURL, 'local-model-needs-no-key', Math.max(timeout, localModelTimeoutMs));
    return {
      client: upstream.client,
      description: `${server.baseURL} (local model ${server.spec.id}, ${server.slots} slots)`,
      // The judge reads the whole pack (thousands of tokens) and answers in up to 4,096: minutes per call on 2 cores,
      // past its time limit, and a sub-1B model's verdict would be noise that rejects packs at random. Skipped, and the
      // pre-evaluation report says so; the deterministic checks (structure, ownership, scan, similarity) still run.
      judgeSkipped: `the local model (${server.spec.id}) cannot judge packs; the LLM judge was not asked`,
      close: async () => {
        upstream.close();
        await server.stop();
      },
    };
  }
  const { child, url } = await spawnSimFleet(config);
  const upstream = upstreamClient(url, 'sim-fleet-needs-no-key', timeout);
  return {
    client: upstream.client,
    description: `${url} (sim fleet, simulated models, ${config.TRL_SIM_FLEET_MODE} mode)`,
    close: () =>
      new Promise<void>((resolve) => {
        upstream.close();
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function spawnSimFleet(config: WorkerConfig): Promise<{ child: ChildProcess; url: string }> {
  // --exit-with-stdin: the fleet ends when this process does, even by SIGKILL (the pipe closes).
  const args = [
    '--import',
    'tsx',
    path.join(repoRoot, 'simfleet', 'main.ts'),
    '--port',
    '0',
    '--time-scale',
    String(simFleetTimeScaleOf(config)),
    '--mode',
    config.TRL_SIM_FLEET_MODE,
    '--exit-with-stdin',
  ];
  if (config.TRL_SIM_SCENARIOS_DIR) args.push('--scenarios-dir', config.TRL_SIM_SCENARIOS_DIR);
  // Its own process, with none of the worker's secrets in its environment; it plays the models
  // the gateway allows, so an operator's models file (no secret) goes along.
  const configuredModelsFile = readSetting(moneySettings, 'TRL_MODELS_FILE');
  const modelsFile = configuredModelsFile ? { TRL_MODELS_FILE: configuredModelsFile } : {};
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', ...modelsFile },
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`the sim fleet did not start in 30s: ${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sim fleet exited with ${code}: ${stderr}`));
    });
  });
}
