// `trl serve`'s front door: an OpenAI-compatible server with one model, `auto`. Each chat request is
// routed to its conversation's policy instance (instance-pool.ts) and forwarded to that instance's
// agent endpoint; the answer goes back with what it cost and which models answered, in headers
// (x-trl-cost-usd, x-trl-models) and in the body's `usage`. A streamed answer is collected first so
// its cost is known when the headers go out (the TypeScript sandbox answers whole anyway).
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { listenOn, type Listening } from '../gateway/http/listen.ts';
import { HttpError, readJsonBody } from '../gateway/http/json-body.ts';
import { InstanceFailedError, PoolFullError } from './instance-pool.ts';
import type { ConversationRouter } from './generation-router.ts';
import { sessionKey } from './session-key.ts';
import { usageOf, withStreamUsage, type RequestCost } from './request-meter.ts';
import { servedModel } from './served-model.ts';
import { forwardChat } from './forward-chat.ts';

export { servedModel } from './served-model.ts';

const chatRequestSchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(z.unknown()).min(1, 'messages must be a non-empty array'),
  stream: z.boolean().optional(),
});

/** A live request the policy answered (any status), as the shadow mirror sees it. */
export interface AnsweredRequest {
  session: string;
  body: Record<string, unknown>;
  status: number;
  latencyMs: number;
  cost: RequestCost;
}

/** One answered (or refused) request, for the client's call log. */
export interface ServedCall {
  at: string;
  requestId: string;
  session: string;
  instance?: string;
  /** The pack whose policy answered. */
  pack?: string;
  status: number;
  streamed: boolean;
  latencyMs: number;
  costUsd: number;
  models: string[];
  promptTokens: number;
  completionTokens: number;
  error?: string;
}

/** API keys, limits and call logs (client-gate.ts); absent, every loopback client is served. */
export interface ClientGate {
  /** The client behind an Authorization header; throws HttpError 401 / 429 / 402. */
  admit(authorization: string | undefined): Promise<{ clientId: string }>;
  record(clientId: string, call: ServedCall): Promise<void>;
}

export interface ServeServerOptions {
  /** The conversation's instance, in the generation (pack) that serves it (generation-router.ts). */
  conversations: ConversationRouter;
  /** Called after each answered chat request with the request body (shadow mirroring). */
  onAnswered?(request: AnsweredRequest): void;
  host: string;
  port?: number;
  /** How long one request may take end to end (the instance's own timeout is shorter). */
  requestTimeoutMs: number;
  gate?: ClientGate;
  maxBodyBytes?: number;
}

export interface ServeServer extends Listening {
  /** Requests answered so far (any status). */
  readonly requests: number;
}

export async function startServeServer(options: ServeServerOptions): Promise<ServeServer> {
  const state = { requests: 0 };
  const server = http.createServer((request, response) => {
    void handle(options, request, response).finally(() => {
      state.requests += 1;
    });
  });
  const listening = await listenOn(server, options.host, options.port);
  return {
    ...listening,
    get requests() {
      return state.requests;
    },
  };
}

async function handle(
  options: ServeServerOptions,
  request: http.IncomingMessage,
  response: http.ServerResponse,
): Promise<void> {
  const startedMs = performance.now();
  const requestId = randomUUID();
  response.setHeader('x-request-id', requestId);
  let client: { clientId: string } | undefined;
  // The reply is written after the call log line, so a client that has its answer finds it logged.
  let reply: Reply = { status: 500, headers: {}, text: '' };
  const call: ServedCall = {
    at: new Date().toISOString(),
    requestId,
    session: '',
    status: 0,
    streamed: false,
    latencyMs: 0,
    costUsd: 0,
    models: [],
    promptTokens: 0,
    completionTokens: 0,
  };
  try {
    const url = new URL(request.url ?? '/', 'http://serve');
    if (options.gate) client = await options.gate.admit(request.headers.authorization);
    if (request.method === 'GET' && url.pathname === '/v1/models') {
      reply = reply200(
        { 'content-type': 'application/json' },
        JSON.stringify({
          object: 'list',
          data: [{ id: servedModel, object: 'model', created: 0, owned_by: 'trl-serve' }],
        }),
      );
      return;
    }
    if (request.method !== 'POST' || url.pathname !== '/v1/chat/completions')
      throw new HttpError(404, 'not_found', `${request.method} ${url.pathname} is not served`);
    const parsed = chatRequestSchema.safeParse(await readJsonBody(request, options.maxBodyBytes ?? 16 * 1024 * 1024));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HttpError(400, 'invalid_request_error', `field "${issue?.path.join('.')}": ${issue?.message}`);
    }
    const body = parsed.data;
    if (body.model !== undefined && body.model !== servedModel)
      throw new HttpError(
        404,
        'model_not_found',
        `model "${body.model}" is not served; the only model is "${servedModel}"`,
      );
    const session =
      typeof request.headers['x-trl-session'] === 'string' && request.headers['x-trl-session']
        ? `h-${request.headers['x-trl-session'].slice(0, 128)}`
        : sessionKey(body.messages);
    call.session = session;
    call.streamed = body.stream === true;
    const answer = await options.conversations.run(session, async (instance, packHash) => {
      call.instance = instance.id;
      call.pack = packHash;
      return { ...(await forwardChat(instance, body, options.requestTimeoutMs)), instance: instance.id, packHash };
    });
    options.onAnswered?.({
      session,
      body,
      status: answer.status,
      latencyMs: performance.now() - startedMs,
      cost: answer.cost,
    });
    Object.assign(call, {
      status: answer.status,
      costUsd: answer.cost.costUsd,
      models: answer.cost.models,
      promptTokens: answer.cost.promptTokens,
      completionTokens: answer.cost.completionTokens,
    });
    const headers = {
      'content-type': answer.contentType,
      ...costHeaders(answer.cost),
      'x-trl-instance': answer.instance,
      'x-trl-pack': answer.packHash,
      'x-trl-session': session,
    };
    if (answer.status !== 200) {
      call.error = answer.text.slice(0, 500);
      reply = { status: answer.status, headers, text: answer.text };
      return;
    }
    if (answer.contentType.startsWith('text/event-stream')) {
      const wantsUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
      reply = reply200(
        { ...headers, 'cache-control': 'no-cache' },
        wantsUsage ? withStreamUsage(answer.text, usageOf(answer.cost)) : answer.text,
      );
      return;
    }
    let completion: Record<string, unknown>;
    try {
      completion = JSON.parse(answer.text) as Record<string, unknown>;
    } catch {
      throw new HttpError(502, 'policy_error', 'the policy answered with something that is not JSON');
    }
    reply = reply200(headers, JSON.stringify({ ...completion, usage: usageOf(answer.cost) }));
  } catch (error) {
    const [status, type, message] = errorReply(error, options.requestTimeoutMs);
    call.status = status;
    call.error = message;
    reply = {
      status,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify({ error: { message, type, code: type, param: null } }),
    };
  } finally {
    call.latencyMs = Math.round(performance.now() - startedMs);
    if (client && options.gate && call.session) await options.gate.record(client.clientId, call).catch(() => undefined);
    send(response, reply);
  }
}

interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
}

function reply200(headers: Record<string, string>, text: string): Reply {
  return { status: 200, headers, text };
}

function costHeaders(cost: RequestCost): Record<string, string> {
  return {
    'x-trl-cost-usd': cost.costUsd.toFixed(9),
    'x-trl-models': cost.models.join(','),
    'x-trl-model-calls': String(cost.calls),
  };
}

function send(response: http.ServerResponse, reply: Reply): void {
  if (response.destroyed) return;
  response.writeHead(reply.status, { ...reply.headers, 'content-length': Buffer.byteLength(reply.text) });
  response.end(reply.text);
}

/** One mapping of every failure to an OpenAI-style status, type and message. */
function errorReply(error: unknown, requestTimeoutMs: number): [number, string, string] {
  if (error instanceof HttpError) return [error.status, error.type, error.message];
  if (error instanceof InstanceFailedError) return [502, 'policy_instance_failed', error.message];
  if (error instanceof PoolFullError) return [503, 'pool_full', error.message];
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return [504, 'policy_timeout', `the policy did not answer within ${requestTimeoutMs / 1000}s`];
  return [502, 'policy_unreachable', `the policy instance could not be reached: ${(error as Error).message}`];
}
