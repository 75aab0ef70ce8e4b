// The sim fleet's HTTP server (node:http): OpenAI-compatible /v1/models and /v1/chat/completions for
// the eight allowlisted models, simulated. Binds loopback only: sandboxes must never reach it directly.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadAllowlist, type Allowlist } from '../gateway/catalog/allowlist.ts';
import { SimApiError, invalidRequest } from './api-error.ts';
import { loadSimScenarios } from './scenario-recognition.ts';
import {
  simulateChatCompletion,
  simulatorName,
  type FleetContext,
  type FleetMode,
  type SimulatedCompletion,
} from './simulate-completion.ts';
import { completionChunks, sseDone, sseEvent } from './sse.ts';
import { createCallCounter } from './model-drift.ts';

export interface SimFleetOptions {
  host?: '127.0.0.1';
  /** 0 (the default) picks a free port. */
  port?: number;
  allowlist?: Allowlist;
  scenariosDir?: string;
  /** Multiplies every simulated delay: 1 is the profiles' real pace, 0 answers at once. */
  timeScale?: number;
  /** `fast` (one attempt, 2–4 turns) or `realistic` (simfleet/README.md): no default, every caller says which. */
  mode: FleetMode;
}

export interface SimFleet {
  /** Base URL for OpenAI clients, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  close(): Promise<void>;
}

const simulatorHeader = { 'x-trl-simulator': simulatorName };
const maxBodyBytes = 32 * 1024 * 1024;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...simulatorHeader,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendError(res: ServerResponse, error: SimApiError): void {
  sendJson(res, error.status, error.toBody());
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes)
      throw new SimApiError(
        413,
        'invalid_request_error',
        'request_too_large',
        `the request body is over ${maxBodyBytes} bytes`,
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Waits, unless the client went away or the server is closing; false when it should stop. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (ms <= 0) return true;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

function modelObject(id: string) {
  return { id, object: 'model' as const, created: 0, owned_by: `${simulatorName} (simulated)` };
}

export async function startSimFleet(options: SimFleetOptions): Promise<SimFleet> {
  const host = options.host ?? '127.0.0.1';
  if (host !== '127.0.0.1') throw new Error(`the sim fleet binds 127.0.0.1 only, not ${String(host)}`);
  const timeScale = options.timeScale ?? 1;
  if (!Number.isFinite(timeScale) || timeScale < 0)
    throw new Error(`timeScale must be a non-negative number, not ${timeScale}`);
  const context: FleetContext = {
    allowlist: options.allowlist ?? loadAllowlist(),
    scenarios: await loadSimScenarios(options.scenariosDir),
    mode: options.mode,
  };
  const closing = new AbortController();
  // The order of calls per model, for models whose profile drifts.
  const countCall = createCallCounter();

  async function streamCompletion(
    res: ServerResponse,
    simulated: SimulatedCompletion,
    signal: AbortSignal,
  ): Promise<void> {
    res.writeHead(200, {
      ...simulatorHeader,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    const chunks = completionChunks(simulated.completion, simulated.includeUsage);
    const start = performance.now();
    const firstAt = simulated.latencyMs * timeScale;
    const generationMs = simulated.generationMs * timeScale;
    for (let i = 0; i < chunks.length; i++) {
      // Pacing only: the clock decides when a chunk goes out, never what it says.
      const dueAt = firstAt + (chunks.length > 1 ? (generationMs * i) / (chunks.length - 1) : 0);
      if (!(await pause(dueAt - (performance.now() - start), signal))) return void res.destroy();
      res.write(sseEvent(chunks[i]));
    }
    res.end(sseDone);
  }

  async function chatCompletions(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch (error) {
      if (error instanceof SimApiError) return sendError(res, error);
      return sendError(
        res,
        invalidRequest(`the request body is not JSON: ${(error as Error).message}`, null, 'invalid_json'),
      );
    }
    const attemptHeader = Number(req.headers['x-trl-attempt']);
    const tryHeader = typeof req.headers['x-trl-try'] === 'string' ? req.headers['x-trl-try'].slice(0, 64) : undefined;
    const result = simulateChatCompletion(
      body,
      context,
      Number.isSafeInteger(attemptHeader) && attemptHeader > 1 ? attemptHeader : 1,
      tryHeader,
      countCall,
    );
    if (!result.ok) {
      if (!(await pause(result.delayMs * timeScale, signal))) return void res.destroy();
      return sendError(res, result.error);
    }
    const simulated = result.value;
    if (simulated.stream) return streamCompletion(res, simulated, signal);
    if (!(await pause((simulated.latencyMs + simulated.generationMs) * timeScale, signal))) return void res.destroy();
    sendJson(res, 200, simulated.completion);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestDone = new AbortController();
    res.on('close', () => requestDone.abort());
    const signal = AbortSignal.any([requestDone.signal, closing.signal]);
    const route = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    if (route === '/v1/chat/completions') {
      if (req.method !== 'POST')
        return sendError(
          res,
          new SimApiError(405, 'invalid_request_error', 'method_not_allowed', 'use POST for /v1/chat/completions'),
        );
      return chatCompletions(req, res, signal);
    }
    if (route === '/v1/models' && req.method === 'GET') {
      return sendJson(res, 200, { object: 'list', data: context.allowlist.models.map((m) => modelObject(m.id)) });
    }
    const single = /^\/v1\/models\/([^/]+)$/.exec(route);
    if (single && req.method === 'GET') {
      const id = decodeURIComponent(single[1]!);
      if (context.allowlist.models.some((m) => m.id === id)) return sendJson(res, 200, modelObject(id));
      return sendError(
        res,
        new SimApiError(
          404,
          'invalid_request_error',
          'model_not_found',
          `The model "${id}" does not exist in the sim fleet`,
          'model',
        ),
      );
    }
    sendError(
      res,
      new SimApiError(
        404,
        'invalid_request_error',
        'not_found',
        `no route ${req.method ?? ''} ${route || '/'} on the sim fleet (try GET /v1/models or POST /v1/chat/completions)`,
      ),
    );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      sendError(
        res,
        new SimApiError(500, 'server_error', 'internal_error', `sim fleet bug: ${(error as Error).message}`),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/v1`,
    async close() {
      closing.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
