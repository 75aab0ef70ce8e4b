// Test support: a scripted OpenAI-compatible server on 127.0.0.1 that answers the judge with whatever a
// test wants (500s, garbage, bad JSON, good verdicts) and counts the calls it gets.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type { JudgeAnswer } from '../judge-protocol.ts';

export interface FakeReply {
  status: number;
  body: string;
  contentType?: string;
  /** Waits this long before answering (to provoke client timeouts). */
  delayMs?: number;
}

export interface FakeUpstream {
  /** Base URL for OpenAI clients: http://127.0.0.1:PORT/v1 */
  url: string;
  /** Parsed request bodies, one per call to /v1/chat/completions. */
  bodies: Record<string, unknown>[];
  calls(): number;
  client(): OpenAI;
  close(): Promise<void>;
}

/** A chat completion whose message content is the given text. */
export function completionReply(content: string, finishReason = 'stop'): FakeReply {
  return {
    status: 200,
    body: JSON.stringify({
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 0,
      model: 'fake-judge',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null },
          logprobs: null,
          finish_reason: finishReason,
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    }),
  };
}

export function answerReply(answer: JudgeAnswer): FakeReply {
  return completionReply(JSON.stringify(answer));
}

export function errorReply(status: number, message = 'scripted failure', code: string | null = null): FakeReply {
  return {
    status,
    body: JSON.stringify({
      error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code },
    }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeUpstream(
  script: (call: number, body: Record<string, unknown>) => FakeReply,
): Promise<FakeUpstream> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      if (!req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      bodies.push(body);
      const reply = script(bodies.length, body);
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (res.destroyed) return;
      res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json' });
      res.end(reply.body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    bodies,
    calls: () => bodies.length,
    client: () => new OpenAI({ baseURL: url, apiKey: 'fake-key' }),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
