// A small scripted policy host for tests: spawns the real runner (`node runner.mjs`, no loader) on
// the host's real channel (policy/host/policy-channel.ts), answers its `call` messages from a
// script, and checks every line it sends against the protocol. Nothing may reach its stdout.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  runnerMessageSchema,
  type BudgetView,
  type CallError,
  type ModelInfo,
  type RunnerMessage,
} from '../runtime/protocol.ts';
import { loadAllowlist } from '../../gateway/catalog/allowlist.ts';
import { maxProtocolLineBytes } from '../runtime/protocol.ts';
import { PolicyChannel } from '../host/policy-channel.ts';

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
  /** Lines the runner sent that are not valid protocol messages, and anything on its stdout; tests expect none. */
  readonly invalidLines: string[] = [];
  stderr = '';
  budget: BudgetView;
  private readonly waiting = new Map<string, (outcome: RequestOutcome) => void>();
  private readonly started: Promise<{ channel: PolicyChannel; exited: Promise<number | null>; kill(): void }>;
  private startup?: (message: RunnerMessage) => void;
  private requestCounter = 0;

  constructor(
    private readonly script: CallScript,
    budget: BudgetView,
  ) {
    this.budget = { ...budget };
    this.started = PolicyChannel.open(maxProtocolLineBytes, {
      onLine: (line) => this.receive(line),
      onOverflow: () => this.invalidLines.push('(a line over the protocol bound)'),
      onBroken: () => undefined,
    }).then((channel) => {
      const child = spawn(process.execPath, [runnerPath], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { TRL_POLICY_CHANNEL: channel.hostPath },
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => this.invalidLines.push(`stdout: ${chunk}`));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      return { channel, exited, kill: () => child.kill('SIGKILL') };
    });
  }

  send(message: unknown): void {
    const line = JSON.stringify(message);
    void this.started.then(({ channel }) => channel.send(line));
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

  /** Closes the channel (the runner should exit) and returns the exit code. */
  async close(): Promise<number | null> {
    const { channel, exited, kill } = await this.started;
    await channel.close();
    const timer = setTimeout(kill, 5_000);
    const code = await exited;
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
      this.budget = {
        ...this.budget,
        spentUsd: this.budget.spentUsd + costUsd,
        remainingUsd: Math.max(0, this.budget.remainingUsd - costUsd),
      };
      this.send({ t: 'call_result', callId: call.callId, ok: true, body: answer.body, budget: this.budget });
    } else {
      this.send({ t: 'call_result', callId: call.callId, ok: false, error: answer.error, budget: this.budget });
    }
  }
}

export function startHost(
  script: CallScript,
  budget: BudgetView = { capUsd: 1, spentUsd: 0, remainingUsd: 1 },
): FakeHost {
  return new FakeHost(script, budget);
}
