// The OpenAI-compatible endpoint the agent calls: one model, "auto", answered by a policy backend.
// A whole completion (the TypeScript sandbox) is re-cut into chunks when the agent streams (tool-call
// deltas included); a relayed answer (the Python sidecar) is passed through byte for byte.
import http from 'node:http';
import { listenOn } from '../../gateway/http/listen.ts';
import { z } from 'zod';
import { readJsonBody, sendError, sendJson, HttpError } from '../../gateway/http/json-body.ts';
import { completionToChunks, endSse, startSse, writeSse } from '../../gateway/http/sse.ts';
import { PolicyRequestError, TurnLimitError, type AgentRequestBody, type PolicyBackend } from './policy-backend.ts';

const agentRequestSchema = z.looseObject({
  messages: z.array(z.unknown()).min(1, 'messages must be a non-empty array'),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).optional(),
});

export interface AgentEndpoint {
  /** Base URL for an OpenAI client, ending in /v1. */
  url: string;
  port: number;
  requests: number;
  /** Agent requests being answered now: the agent is waiting for the policy while this is above 0. */
  openRequests: number;
  close(): Promise<void>;
}

export async function serveAgentEndpoint(
  backend: PolicyBackend,
  options: {
    host: string;
    port?: number;
    maxBodyBytes?: number;
    /** Told when an agent request opens and when it closes (answered, failed or cut): the watchdog's clock. */
    onAgentWaiting?: (opened: boolean) => void;
  },
): Promise<AgentEndpoint> {
  const state = { requests: 0, open: 0 };
  const server = http.createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://policy');
      if (request.method === 'GET' && url.pathname === '/v1/models') {
        return sendJson(response, 200, {
          object: 'list',
          data: [{ id: 'auto', object: 'model', created: 0, owned_by: 'trl-policy' }],
        });
      }
      if (request.method !== 'POST' || url.pathname !== '/v1/chat/completions')
        throw new HttpError(404, 'not_found', `${request.method} ${url.pathname} is not served`);
      const parsed = agentRequestSchema.safeParse(
        await readJsonBody(request, options.maxBodyBytes ?? 16 * 1024 * 1024),
      );
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new HttpError(400, 'invalid_request_error', `field "${issue?.path.join('.')}": ${issue?.message}`);
      }
      state.requests += 1;
      state.open += 1;
      options.onAgentWaiting?.(true);
      try {
        const body = parsed.data as AgentRequestBody;
        const answer = await backend.answer(body);
        if (answer.kind === 'relay') return await relay(response, answer);
        if (!body.stream) return sendJson(response, 200, answer.completion);
        startSse(response);
        for (const chunk of completionToChunks(answer.completion, body.stream_options?.include_usage === true))
          writeSse(response, chunk);
        endSse(response);
      } finally {
        state.open -= 1;
        options.onAgentWaiting?.(false);
      }
    } catch (error) {
      if (error instanceof PolicyRequestError)
        return sendError(response, error.status, 'policy_error', error.message, error.fault.kind);
      if (error instanceof TurnLimitError) return sendError(response, 400, 'turn_limit_reached', error.message);
      if (error instanceof HttpError) return sendError(response, error.status, error.type, error.message);
      if (response.headersSent) return void response.destroy();
      sendError(response, 500, 'internal_error', 'the policy host failed');
    }
  });
  const listening = await listenOn(server, options.host, options.port);
  return {
    ...listening,
    get requests() {
      return state.requests;
    },
    get openRequests() {
      return state.open;
    },
  };
}

/** Passes a relayed answer through unchanged; a stream that breaks mid-way breaks the agent's too. */
async function relay(
  response: http.ServerResponse,
  answer: Extract<Awaited<ReturnType<PolicyBackend['answer']>>, { kind: 'relay' }>,
): Promise<void> {
  response.writeHead(answer.status, { 'content-type': answer.contentType, 'cache-control': 'no-cache' });
  for await (const bytes of answer.body) {
    if (response.destroyed) break;
    if (!response.write(bytes))
      await new Promise<void>((resolve) => {
        response.once('drain', resolve);
        response.once('close', resolve);
      });
  }
  response.end();
}
