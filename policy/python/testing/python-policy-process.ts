// Starts a Python policy (an example's policy.py, or the policy.json runner) as the sidecar would,
// on this host, and waits for GET /v1/models. Test support for the Python SDK.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeLoopbackPort as freePort } from '../../../common/free-loopback-port.ts';
import { readSetting } from '../../../common/settings/setting.ts';
import { internalSettings } from '../../../common/settings/test-settings.ts';

export const pythonRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const examplesRoot = path.resolve(pythonRoot, '..', 'examples');
export const runnerScript = path.join(pythonRoot, 'policy_json_runner.py');

/** A python3 on this host that has aiohttp and httpx (Debian's python3-aiohttp, python3-httpx), or undefined. */
export function findPython(): string | undefined {
  const candidates = [readSetting(internalSettings, 'TRL_POLICY_PYTHON'), 'python3', '/usr/bin/python3'].filter(
    (c): c is string => Boolean(c),
  );
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ['-c', 'import aiohttp, httpx'], { stdio: 'ignore', timeout: 10_000 });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

export interface PolicyProcessOptions {
  python: string;
  /** The script to run: `<dir>/policy.py`, or the runner for a policy.json pack. */
  script: string;
  args?: string[];
  policyDir: string;
  upstreamUrl: string;
  episodeToken: string;
  defaultModel?: string;
}

export class PolicyProcess {
  private stderrText = '';
  readonly exited: Promise<number | null>;

  private constructor(
    private child: ChildProcess,
    readonly port: number,
  ) {
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrText += chunk.toString('utf8');
    });
    child.stdout?.resume();
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  static async start(options: PolicyProcessOptions): Promise<PolicyProcess> {
    const port = await freePort();
    const child = spawn(options.python, [options.script, ...(options.args ?? [])], {
      cwd: options.policyDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        POLICY_PORT: String(port),
        POLICY_HOST: '127.0.0.1',
        UPSTREAM_URL: options.upstreamUrl,
        EPISODE_TOKEN: options.episodeToken,
        POLICY_DIR: options.policyDir,
        DEFAULT_MODEL: options.defaultModel ?? 'qwen3.8-27b',
        PYTHONPATH: pythonRoot,
        PYTHONDONTWRITEBYTECODE: '1',
        PYTHONUNBUFFERED: '1',
      },
    });
    return new PolicyProcess(child, port);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Resolves when GET /v1/models answers 200; rejects if the process exits first or time runs out. */
  async ready(timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exitCode: number | null | undefined;
    void this.exited.then((code) => {
      exitCode = code;
    });
    while (Date.now() < deadline) {
      if (exitCode !== undefined)
        throw new Error(`policy exited with ${exitCode} before it was ready:\n${this.stderrText}`);
      try {
        const response = await fetch(`${this.baseUrl}/models`);
        if (response.ok) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`policy not ready after ${timeoutMs} ms:\n${this.stderrText}`);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    await this.exited;
    clearTimeout(timer);
  }
}
