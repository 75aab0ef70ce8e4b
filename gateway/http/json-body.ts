// Reading a JSON request body with a size bound (hostile clients), and OpenAI-style error replies.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JsonTooDeepError, parseJsonBounded } from '../../common/bounded-json.ts';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new HttpError(413, 'invalid_request_error', `request body over ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return parseJsonBounded(Buffer.concat(chunks));
  } catch (error) {
    throw new HttpError(
      400,
      'invalid_request_error',
      error instanceof JsonTooDeepError ? `request body ${error.message}` : 'request body is not JSON',
    );
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

export function sendError(
  response: ServerResponse,
  status: number,
  type: string,
  message: string,
  code: string = type,
): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  sendJson(response, status, { error: { message, type, code, param: null } });
}
