// The gateway's OpenAI-compatible HTTP face, for clients that call it over the network (a policy
// sandbox on its own network, tests, tools). Per-run bearer token; loopback or one bridge address.
import http from 'node:http';
import { listenOn } from './http/listen.ts';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { readJsonBody, sendError, sendJson, HttpError } from './http/json-body.ts';
import { startSse, writeSse, endSse } from './http/sse.ts';
import { GatewayError } from './gateway-error.ts';
import type { ModelGateway } from './model-gateway.ts';

const chatBodySchema = z.looseObject({
  model: z.string().min(1, 'model is required'),
  messages: z.array(z.unknown()).min(1, 'messages must be a non-empty array'),
  stream: z.boolean().optional(),
  max_tokens: z.number().int().positive().optional(),
});

export interface GatewayServer {
  url: string;
  close(): Promise<void>;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export interface GatewayServerOptions {
  host: string;
  port?: number;
  token: string;
  maxBodyBytes?: number;
  /** The agent request a call belongs to (for the call log's requestId), when the caller knows it. */
  requestIdOf?: () => string | undefined;
}

export async function serveGateway(gateway: ModelGateway, options: GatewayServerOptions): Promise<GatewayServer> {
  const server = http.createServer(async (request, response) => {
    try {
      if (!tokenMatches(request.headers.authorization, options.token)) throw new HttpError(401, 'unauthorized', 'missing or wrong bearer token');
      const url = new URL(request.url ?? '/', 'http://gateway');
      if (request.method === 'GET' && url.pathname === '/v1/models') {
        return sendJson(response, 200, { object: 'list', data: gateway.modelList().map((m) => ({ id: m.id, object: 'model', created: 0, owned_by: 'trl-gateway' })) });
      }
      if (request.method !== 'POST' || url.pathname !== '/v1/chat/completions') throw new HttpError(404, 'not_found', `${request.method} ${url.pathname} is not served`);
      const parsed = chatBodySchema.safeParse(await readJsonBody(request, options.maxBodyBytes ?? 8 * 1024 * 1024));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new HttpError(400, 'invalid_request_error', `field "${issue?.path.join('.')}": ${issue?.message}`);
      }
      const { model, stream, ...body } = parsed.data;
      const branch = typeof request.headers['x-trl-branch'] === 'string' ? request.headers['x-trl-branch'] : undefined;
      const requestId = options.requestIdOf?.();
      if (!stream) return sendJson(response, 200, await gateway.complete(body, { model, branch, requestId }));
      const chunks = gateway.stream(body, { model, branch, requestId });
      const first = await chunks.next(); // errors before the first byte still get a proper status
      startSse(response);
      if (!first.done) writeSse(response, first.value);
      for await (const chunk of chunks) writeSse(response, chunk);
      endSse(response);
    } catch (error) {
      if (error instanceof GatewayError) return sendJson(response, error.status, error.toHttpBody());
      if (error instanceof HttpError) return sendError(response, error.status, error.type, error.message);
      sendError(response, 500, 'internal_error', 'the gateway failed; see the worker log');
    }
  });
  return listenOn(server, options.host, options.port);
}
