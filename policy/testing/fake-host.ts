// A small scripted policy host for tests: spawns the real runner (`node runner.mjs`, no loader),
// answers its `call` messages from a script, and checks every line it prints against the protocol.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerMessageSchema, type BudgetView, type CallError, type ModelInfo, type RunnerMessage } from '../runtime/protocol.ts';
import { loadAllowlist } from '../../gateway/catalog/allowlist.ts';

export const runnerPath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'runtime', 'runner.mjs');

export type CallMessage = Extract<RunnerMessage, { t: 'call' }>;
export type LogMessage = Extract<RunnerMessage, { t: 'log' }>;
export type RequestOutcome = Extract<RunnerMessage, { t: 'response' } | { t: 'error' }>;
export type CallAnswer = { ok: true; body: unknown; costUsd?: number } | { ok: false; error: CallError };
export type CallScript = (call: CallMessage, host: FakeHost) => CallAnswer | Promise<CallAnswer>;

export function allowlistModels(): ModelInfo[] {
  return loadAllowlist().models.map((model) => ({
    id: model.id,
    inputUsdPerMillion: model.pricing.inputUsdPerMillion,
    cachedInputUsdPerMillion: model.pricing.cachedInputUsdPerMillion,
    outputUsdPerMillion: model.pricing.outputUsdPerMillion,
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxOutputTokens,
    supportsTools: model.supportsTools,
  }));
}

export class FakeHost {
  readonly calls: CallMessage[] = [];
  readonly logs: LogMessage[] = [];
  readonly messages: RunnerMessage[] = [];
  /** Lines the runner printed that are not valid protocol messages; tests expect none. */
  readonly invalidLines: string[] = [];
  stderr = '';
  budget: BudgetView;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<string, (outcome: RequestOutcome) => void>();
  private readonly exited: Promise<number | null>;
  private startup?: (message: RunnerMessage) => void;
  private requestCounter = 0;

  constructor(private readonly script: CallScript, budget: BudgetView) {
    this.budget = { ...budget };
    this.child = spawn(process.execPath, [runnerPath], { stdio: ['pipe', 'pipe', 'pipe'], env: {} });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    let pending = '';
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) this.receive(line);
    });
  }

  send(message: unknown): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Sends init and waits for `ready` or `fatal`. */
  init(bundlePath: string, models: ModelInfo[] = allowlistModels()): Promise<RunnerMessage> {
    const answered = new Promise<RunnerMessage>((resolve) => (this.startup = resolve));
    this.send({ t: 'init', bundlePath, models, budget: this.budget });
    return answered;
  }

  /** Sends one agent request and waits for its `response` or `error`. */
  request(body: unknown, id = `r${++this.requestCounter}`): Promise<RequestOutcome> {
    const outcome = new Promise<RequestOutcome>((resolve) => this.waiting.set(id, resolve));
    this.send({ t: 'request', id, body, budget: this.budget });
    return outcome;
  }

  /** Closes stdin (the runner should exit) and returns the exit code. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }

  callsFor(requestId: string): CallMessage[] {
    return this.calls.filter((call) => call.requestId === requestId);
  }

  private receive(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.invalidLines.push(line);
      return;
    }
    const checked = runnerMessageSchema.safeParse(parsed);
    if (!checked.success) {
      this.invalidLines.push(line);
      return;
    }
    const message = checked.data;
    this.messages.push(message);
    switch (message.t) {
      case 'ready':
      case 'fatal':
        this.startup?.(message);
        return;
      case 'log':
        this.logs.push(message);
        return;
      case 'call':
        this.calls.push(message);
        void this.answer(message);
        return;
      case 'response':
      case 'error':
        this.waiting.get(message.id)?.(message);
        this.waiting.delete(message.id);
        return;
    }
  }

  private async answer(call: CallMessage): Promise<void> {
    let answer: CallAnswer;
    try {
      answer = await this.script(call, this);
    } catch (error) {
      answer = { ok: false, error: { status: 500, type: 'upstream_error', message: String(error), retryable: true } };
    }
    if (answer.ok) {
      const costUsd = answer.costUsd ?? 0.001;
      this.budget = { ...this.budget, spentUsd: this.budget.spentUsd + costUsd, remainingUsd: Math.max(0, this.budget.remainingUsd - costUsd) };
      this.send({ t: 'call_result', callId: call.callId, ok: true, body: answer.body, budget: this.budget });
    } else {
      this.send({ t: 'call_result', callId: call.callId, ok: false, error: answer.error, budget: this.budget });
    }
  }
}

export function startHost(script: CallScript, budget: BudgetView = { capUsd: 1, spentUsd: 0, remainingUsd: 1 }): FakeHost {
  return new FakeHost(script, budget);
}
