// llama-server started on demand on 127.0.0.1 (never 0.0.0.0: sandboxes reach host listeners on
// other addresses) on a free port, ready once /health answers 200, stopped with SIGTERM (SIGKILL
// after a grace period). Its slots fit 2 cores: two conversations decode at once in one batch, a
// third waits in the server's queue.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { LocalModelError, serverStartError } from './local-model-error.ts';
import type { LocalModelSpec } from './local-model-catalog.ts';

export interface LlamaServerSettings {
  binary: string;
  modelFile: string;
  spec: LocalModelSpec;
  /** 0 or absent: a free port. */
  port?: number;
  slots?: number;
  threads?: number;
  readyTimeoutMs?: number;
  /** The names the server answers to (the allowlisted ones: local-model-catalog.ts's mapping). */
  aliases?: string[];
}

export interface LlamaServer {
  /** The OpenAI-compatible base, ending in /v1. */
  baseURL: string;
  port: number;
  pid: number;
  slots: number;
  contextPerSlot: number;
  /** The server's log so far (bounded), for errors and tests. */
  log(): string;
  stop(): Promise<void>;
}

/** Two slots on 2 cores (one per core's share of a batch); at most 4 on a bigger machine. */
export function defaultSlots(cores: number = os.availableParallelism()): number {
  return Math.max(1, Math.min(4, cores));
}

export function serverArgs(
  settings: Required<Pick<LlamaServerSettings, 'modelFile' | 'slots' | 'threads'>> & {
    port: number;
    contextPerSlot: number;
    aliases?: string[];
    /** A chat template file served instead of the GGUF's own. */
    chatTemplateFile?: string;
  },
): string[] {
  return [
    '--model',
    settings.modelFile,
    '--host',
    '127.0.0.1',
    '--port',
    String(settings.port),
    '--parallel',
    String(settings.slots),
    // The context is shared by the slots: each gets contextPerSlot tokens.
    '--ctx-size',
    String(settings.contextPerSlot * settings.slots),
    '--threads',
    String(settings.threads),
    // The model's own chat template, with tool calls parsed into OpenAI's tool_calls.
    '--jinja',
    ...(settings.chatTemplateFile ? ['--chat-template-file', settings.chatTemplateFile] : []),
    '--no-webui',
    // No extra buffer types (repacked weights, AMX): on this machine's Xeon (AMX advertised) the native
    // build's AMX matmul segfaults at the first decode; the plain CPU kernels run.
    '--no-repack',
    ...(settings.aliases?.length ? ['--alias', settings.aliases.join(',')] : []),
  ];
}

/**
 * The server's environment: PATH only, and OpenMP's threads sleep when they wait for each other. The build
 * uses OpenMP, whose default is to spin at each barrier; on a shared machine one of the two threads is often
 * descheduled, and the other spins through its time slice for every matrix of every token. Measured on this
 * machine (SmolLM2-135M, 2 threads, load 20–33): 0.9 decode tokens/s spinning, 18.3 sleeping
 * (docs/figures/local-model.md).
 */
export function serverEnv(path: string = process.env.PATH ?? ''): Record<string, string> {
  return { PATH: path, OMP_WAIT_POLICY: 'passive' };
}

/** Where a catalog entry's chat template lives (infra/local-model/templates/). */
export function chatTemplatePath(name: string): string {
  return fileURLToPath(new URL(`./templates/${name}`, import.meta.url));
}

/** A port on 127.0.0.1 nobody listens on now (the kernel's choice). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Throws the port-in-use error if something listens on 127.0.0.1:port already. */
export function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new LocalModelError(
              'port-in-use',
              `llama-server could not listen on 127.0.0.1:${port}: the port is in use; free it or choose another (TRL_LOCAL_MODEL_PORT)`,
            )
          : error,
      ),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

export async function startLlamaServer(settings: LlamaServerSettings): Promise<LlamaServer> {
  const slots = settings.slots ?? defaultSlots();
  const threads = settings.threads ?? Math.max(1, Math.min(os.availableParallelism(), 8));
  let port = settings.port ?? 0;
  if (port) await assertPortFree(port);
  else port = await freeLoopbackPort();
  const contextPerSlot = settings.spec.contextPerSlot;
  const args = serverArgs({
    modelFile: settings.modelFile,
    slots,
    threads,
    port,
    contextPerSlot,
    aliases: settings.aliases,
    chatTemplateFile: settings.spec.chatTemplate ? chatTemplatePath(settings.spec.chatTemplate) : undefined,
  });
  const child = spawn(settings.binary, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: serverEnv(),
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-32_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // The server must not outlive this process.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const baseURL = `http://127.0.0.1:${port}/v1`;
  try {
    await waitUntilReady(`http://127.0.0.1:${port}/health`, child, exited, settings.readyTimeoutMs ?? 120_000);
  } catch (error) {
    child.kill('SIGKILL');
    const code = await exited;
    process.removeListener('exit', killOnExit);
    if (error instanceof ExitedEarly)
      throw serverStartError({ log, port, modelFile: settings.modelFile, exitCode: code });
    throw error;
  }
  return {
    baseURL,
    port,
    pid: child.pid!,
    slots,
    contextPerSlot,
    log: () => log,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

class ExitedEarly extends Error {}

async function waitUntilReady(
  healthURL: string,
  child: ChildProcess,
  exited: Promise<number | null>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new ExitedEarly();
    const status = await fetch(healthURL, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (gone || child.exitCode !== null) throw new ExitedEarly();
  throw new LocalModelError(
    'server-did-not-start',
    `llama-server did not answer ${healthURL} within ${timeoutMs / 1000} s`,
  );
}
