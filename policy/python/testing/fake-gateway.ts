// A small stand-in for the metered gateway, for the Python SDK tests: node:http on 127.0.0.1 with a
// random port, bearer check, /v1/models, /v1/budget, 402 `cap` when told, and scripted answers
// (streamed as SSE or whole) that carry a tool call when the last user message contains "[tool]".
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: any;
}

const costPerCallUsd = 0.01;
export const toolCallArguments = '{"command":"ls -la /app"}';

function answerFor(body: any): { content: string | null; toolCalls: any[] | undefined; finish: string } {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const last = messages[messages.length - 1];
  const wantsTool = last?.role === 'user' && typeof last.content === 'string' && last.content.includes('[tool]');
  if (wantsTool) {
    return {
      content: null,
      toolCalls: [
        { id: 'call_fake_1', type: 'function', function: { name: 'terminal', arguments: toolCallArguments } },
      ],
      finish: 'tool_calls',
    };
  }
  return { content: `answer from ${body?.model}`, toolCalls: undefined, finish: 'stop' };
}

function usage(): Record<string, number> {
  return { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };
}

export class FakeGateway {
  readonly token = 'episode-token-for-tests';
  readonly requests: RecordedRequest[] = [];
  capped = false;
  spentUsd = 0;
  readonly capUsd = 1;
  private server = http.createServer((request, response) => this.handle(request, response));
  private port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  get remainingUsd(): number {
    return Math.max(0, this.capUsd - this.spentUsd);
  }

  /** The chat-completion bodies the gateway received, in order. */
  completions(): any[] {
    return this.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body);
  }

  reset(): void {
    this.requests.length = 0;
    this.capped = false;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private send(response: http.ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, {
      'Content-Type': 'application/json',
      'x-trajrl-budget-remaining-usd': this.remainingUsd.toFixed(6),
    });
    response.end(JSON.stringify(body));
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: any = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const path = (request.url ?? '').split('?')[0] ?? '';
      this.requests.push({ method: request.method ?? '', path, authorization: request.headers.authorization, body });
      if (request.headers.authorization !== `Bearer ${this.token}`) {
        this.send(response, 401, { error: { message: 'bad episode token', type: 'auth' } });
      } else if (request.method === 'GET' && path === '/v1/models') {
        this.send(response, 200, { object: 'list', data: [{ id: 'glm-5.3-flash', object: 'model' }] });
      } else if (request.method === 'GET' && path === '/v1/budget') {
        this.send(response, 200, {
          cap_usd: this.capUsd,
          spent_usd: this.spentUsd,
          reserved_usd: 0,
          remaining_usd: this.remainingUsd,
        });
      } else if (request.method === 'POST' && path === '/v1/chat/completions') {
        this.complete(body, response);
      } else {
        this.send(response, 404, { error: { message: `no route ${path}`, type: 'not_found' } });
      }
    });
  }

  private complete(body: any, response: http.ServerResponse): void {
    if (this.capped) {
      this.send(response, 402, { error: { message: 'episode budget exhausted', type: 'cap' } });
      return;
    }
    const answer = answerFor(body);
    const created = Math.floor(Date.now() / 1000);
    const id = `gen-${this.requests.length}`;
    if (!body?.stream) {
      this.spentUsd += costPerCallUsd;
      const message: any = { role: 'assistant', content: answer.content };
      if (answer.toolCalls) message.tool_calls = answer.toolCalls;
      this.send(response, 200, {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: answer.finish }],
        usage: usage(),
      });
      return;
    }
    // The header of a streamed answer is written before its cost is known, as at the real gateway.
    response.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'x-trajrl-budget-remaining-usd': this.remainingUsd.toFixed(6),
    });
    this.spentUsd += costPerCallUsd;
    const chunk = (delta: unknown, finish: string | null = null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const events: string[] = [chunk({ role: 'assistant', content: '' })];
    if (answer.content) {
      const half = Math.floor(answer.content.length / 2);
      events.push(chunk({ content: answer.content.slice(0, half) }), chunk({ content: answer.content.slice(half) }));
    }
    for (const [index, call] of (answer.toolCalls ?? []).entries()) {
      const args: string = call.function.arguments;
      events.push(
        chunk({
          tool_calls: [
            {
              index,
              id: call.id,
              type: 'function',
              function: { name: call.function.name, arguments: args.slice(0, 8) },
            },
          ],
        }),
      );
      events.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(8) } }] }));
    }
    events.push(chunk({}, answer.finish));
    if (body.stream_options?.include_usage) {
      events.push(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage: usage() })}\n\n`,
      );
    }
    events.push('data: [DONE]\n\n');
    let index = 0;
    const writeNext = () => {
      if (index >= events.length) {
        response.end();
        return;
      }
      response.write(events[index++]);
      setTimeout(writeNext, 2);
    };
    writeNext();
  }
}
