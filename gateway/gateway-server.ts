// The gateway's OpenAI-compatible HTTP face, for clients that call it over the network (a policy
// sidecar on its own network, tests, tools): `POST /v1/chat/completions` (streamed or not),
// `GET /v1/models`, `GET /v1/budget` → {cap_usd, spent_usd, reserved_usd, remaining_usd}.
// A bearer token names the episode (one ModelGateway each); an unknown or closed token gets 401.
// Every answer to an episode carries `x-trajrl-budget-remaining-usd`. Loopback or one bridge address.
import http from 'node:http';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { listenOn } from './http/listen.ts';
import { readJsonBody, sendError, sendJson, HttpError } from './http/json-body.ts';
import { startSse, writeSse, endSse } from './http/sse.ts';
import { GatewayError } from './gateway-error.ts';
import { ModelGateway } from './model-gateway.ts';

export const budgetHeader = 'x-trajrl-budget-remaining-usd';

const chatBodySchema = z.looseObject({
  model: z.string().min(1, 'model is required'),
  messages: z.array(z.unknown()).min(1, 'messages must be a non-empty array'),
  stream: z.boolean().optional(),
});

// Tokens are kept by their sha256, so looking one up does not compare secrets byte by byte.
function tokenKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The episodes one server answers for, by bearer token; a closed token stays refused. */
export class EpisodeTokens {
  private readonly open = new Map<string, ModelGateway>();

  add(token: string, gateway: ModelGateway): void {
    if (token.length < 8) throw new Error('an episode token must be at least 8 characters');
    this.open.set(tokenKey(token), gateway);
  }

  /** Ends the episode's access: later requests with its token get 401. */
  close(token: string): void {
    this.open.delete(tokenKey(token));
  }

  lookup(token: string): ModelGateway | undefined {
    return this.open.get(tokenKey(token));
  }
}

export interface GatewayServer {
  url: string;
  port: number;
  episodes: EpisodeTokens;
  close(): Promise<void>;
}

export interface GatewayServerOptions {
  host: string;
  port?: number;
  /** With a single gateway: its episode token. */
  token?: string;
  maxBodyBytes?: number;
  /** The agent request a call belongs to (for the call log's requestId), when the caller knows it. */
  requestIdOf?: () => string | undefined;
}

function bearer(header: string | undefined): string {
  return header?.replace(/^Bearer\s+/i, '') ?? '';
}

async function handle(
  episodes: EpisodeTokens,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  maxBodyBytes: number,
  requestIdOf?: () => string | undefined,
): Promise<void> {
  const gateway = episodes.lookup(bearer(request.headers.authorization));
  if (!gateway) throw new HttpError(401, 'unauthorized', 'missing, unknown or closed episode token');
  // Set before any reply is written; refreshed on the answers below that change the budget.
  const setBudgetHeader = () => {
    if (!response.headersSent) response.setHeader(budgetHeader, gateway.remainingUsdHeader());
  };
  setBudgetHeader();
  const url = new URL(request.url ?? '/', 'http://gateway');
  if (request.method === 'GET' && url.pathname === '/v1/models') {
    return sendJson(response, 200, {
      object: 'list',
      data: gateway.modelList().map((m) => ({
        id: m.id,
        object: 'model',
        created: 0,
        owned_by: 'trl-gateway',
        context_window: m.contextWindow,
      })),
    });
  }
  if (request.method === 'GET' && url.pathname === '/v1/budget') return sendJson(response, 200, gateway.budget());
  if (request.method !== 'POST' || url.pathname !== '/v1/chat/completions')
    throw new HttpError(404, 'not_found', `${request.method} ${url.pathname} is not served`);
  const parsed = chatBodySchema.safeParse(await readJsonBody(request, maxBodyBytes));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(400, 'invalid_request_error', `field "${issue?.path.join('.')}": ${issue?.message}`);
  }
  const { model, stream, ...body } = parsed.data;
  const branch = typeof request.headers['x-trl-branch'] === 'string' ? request.headers['x-trl-branch'] : undefined;
  const requestId =
    typeof request.headers['x-trl-request-id'] === 'string' ? request.headers['x-trl-request-id'] : requestIdOf?.();
  // A client that goes away aborts the upstream call (which is then charged as failed after sending).
  const gone = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) gone.abort(new Error('the client closed the connection'));
  });
  const options = { model, branch, requestId, signal: gone.signal };
  try {
    if (!stream) {
      const completion = await gateway.complete(body, options);
      setBudgetHeader();
      return sendJson(response, 200, completion);
    }
    const chunks = gateway.stream(body, options);
    const first = await chunks.next(); // errors before the first byte still get a proper status
    setBudgetHeader();
    startSse(response);
    if (!first.done) writeSse(response, first.value);
    for await (const chunk of chunks) {
      if (gone.signal.aborted) break;
      writeSse(response, chunk);
    }
    endSse(response);
  } finally {
    setBudgetHeader();
  }
}

export async function serveGateway(
  target: ModelGateway | EpisodeTokens,
  options: GatewayServerOptions,
): Promise<GatewayServer> {
  let episodes: EpisodeTokens;
  if (target instanceof ModelGateway) {
    if (!options.token) throw new Error('serving one gateway needs its episode token');
    episodes = new EpisodeTokens();
    episodes.add(options.token, target);
  } else {
    episodes = target;
  }
  const maxBodyBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const server = http.createServer(async (request, response) => {
    try {
      await handle(episodes, request, response, maxBodyBytes, options.requestIdOf);
    } catch (error) {
      if (response.headersSent) return void response.end(); // a stream broken midway: end it
      if (error instanceof GatewayError) return sendJson(response, error.status, error.toHttpBody());
      if (error instanceof HttpError) return sendError(response, error.status, error.type, error.message);
      sendError(response, 500, 'internal_error', 'the gateway failed; see the worker log');
    }
  });
  const listening = await listenOn(server, options.host, options.port);
  return { ...listening, episodes };
}
