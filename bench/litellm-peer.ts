// LiteLLM's proxy (PyPI `litellm[proxy]`), the peer gateway for bench/gateway-overhead.ts: installed
// into a venv under .cache by the bench itself (pinned: 1.107.0 was pulled from PyPI as compromised),
// started on loopback in front of the same sim fleet, one `openai/<name>` entry per catalog model.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { litellmVenvDir } from '../common/data-layout.ts';

export const litellmVersion = '1.106.12';

export interface LitellmProxy {
  url: string;
  /** The proxy's master key, the bearer its clients send. */
  apiKey: string;
  close(): Promise<void>;
}

function run(command: string, args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (bytes: Buffer) => {
      output = (output + bytes.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: error.message });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The venv's `litellm` executable, installing it first; a reason string when it cannot be had. */
export async function ensureLitellm(installTimeoutMs: number): Promise<{ executable: string } | { reason: string }> {
  const venv = litellmVenvDir(litellmVersion);
  const executable = path.join(venv, 'bin', 'litellm');
  if (existsSync(executable)) return { executable };
  await mkdir(path.dirname(venv), { recursive: true });
  const made = await run('python3', ['-m', 'venv', venv], 60_000);
  if (made.code !== 0) return { reason: `python3 -m venv failed: ${made.output.trim().split('\n').pop()}` };
  const installed = await run(
    path.join(venv, 'bin', 'pip'),
    ['install', '--quiet', '--disable-pip-version-check', `litellm[proxy]==${litellmVersion}`],
    installTimeoutMs,
  );
  if (installed.code !== 0 || !existsSync(executable)) {
    return {
      reason: `pip install litellm[proxy]==${litellmVersion} failed or timed out (${Math.round(installTimeoutMs / 1000)} s): ${installed.output.trim().split('\n').slice(-2).join(' ')}`,
    };
  }
  return { executable };
}

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`litellm exited with code ${child.exitCode}`);
    const ok = await fetch(`${url}/health/liveliness`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`litellm did not answer within ${timeoutMs} ms`);
}

/** Starts the proxy on 127.0.0.1:port in front of `upstreamUrl` (an OpenAI base URL ending in /v1). */
export async function startLitellm(
  executable: string,
  options: { upstreamUrl: string; models: readonly string[]; port: number; workDir: string },
): Promise<LitellmProxy> {
  // A strong random master key: the proxy refuses to start without one.
  const apiKey = `sk-${randomBytes(24).toString('hex')}`;
  const config = [
    'general_settings:',
    `  master_key: ${apiKey}`,
    'model_list:',
    ...options.models.flatMap((model) => [
      `  - model_name: ${model}`,
      '    litellm_params:',
      `      model: openai/${model}`,
      `      api_base: ${options.upstreamUrl}`,
      '      api_key: sim',
    ]),
  ].join('\n');
  const configFile = path.join(options.workDir, 'litellm.yaml');
  await writeFile(configFile, `${config}\n`);
  // No telemetry or update checks: the machine only reaches loopback and package registries.
  const child = spawn(
    executable,
    ['--config', configFile, '--host', '127.0.0.1', '--port', String(options.port), '--num_workers', '1'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        LITELLM_TELEMETRY: 'False',
        LITELLM_LOG: 'ERROR',
        LITELLM_LOCAL_MODEL_COST_MAP: 'True',
        DISABLE_SCHEMA_UPDATE: 'True',
      },
    },
  );
  let stderr = '';
  child.stderr?.on('data', (bytes: Buffer) => {
    stderr = (stderr + bytes.toString('utf8')).slice(-2000);
  });
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await waitUntilReady(url, child, 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}: ${stderr.trim().split('\n').slice(-3).join(' ')}`);
  }
  return {
    url: `${url}/v1`,
    apiKey,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
