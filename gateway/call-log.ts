// The scenario's model-call log: one JSON line per call (request, response, usage, cost, latency,
// model, status). It is the money trail and what replay feeds back.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';

export interface CallLogEntry {
  callId: string;
  requestId?: string;
  branch?: string;
  model: string;
  status: 'ok' | 'refused' | 'error';
  errorType?: string;
  promptTokens: number;
  cachedPromptTokens: number;
  completionTokens: number;
  reservedUsd: number;
  costUsd: number;
  overrunUsd: number;
  spentAfterUsd: number;
  latencyMs: number;
  maxTokens?: number;
  streamed: boolean;
  request: unknown;
  response?: unknown;
}

export class CallLog {
  private stream: WriteStream | undefined;
  readonly entries: Omit<CallLogEntry, 'request' | 'response'>[] = [];

  constructor(readonly file?: string) {
    if (file) {
      mkdirSync(path.dirname(file), { recursive: true });
      this.stream = createWriteStream(file, { flags: 'a' });
    }
  }

  append(entry: CallLogEntry): void {
    const { request: _request, response: _response, ...summary } = entry;
    this.entries.push(summary);
    this.stream?.write(JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n');
  }

  async close(): Promise<void> {
    const stream = this.stream;
    this.stream = undefined;
    if (stream) await new Promise<void>((resolve) => stream.end(resolve));
  }
}
