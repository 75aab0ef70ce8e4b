// The trusted policy host: forwards each agent request to the policy in its sandbox, serves the
// policy's ctx.call through the gateway, and turns every policy fault (crash, hang, malformed
// answer, protocol abuse) into a recorded fault and an OpenAI-style error for the agent.
import { HeadTailLines } from '../../common/head-tail-lines.ts';
import type { ModelGateway } from '../../gateway/model-gateway.ts';
import { GatewayError } from '../../gateway/gateway-error.ts';
import { runnerMessageSchema, type ModelInfo } from '../runtime/protocol.ts';
import { bundlePathInSandbox, PolicySandbox, type PolicySandboxSpec, type SandboxExit } from './policy-sandbox.ts';
import { killedFromOutside } from '../../sandbox/container-exit.ts';
import { checkPolicyCompletion, type PolicyCompletion } from './completion-schema.ts';
import type Docker from 'dockerode';
import type { TurnLog } from './turn-log.ts';

import {
  PolicyRequestError,
  type AgentRequestBody,
  type PolicyAnswer,
  type PolicyBackend,
  type PolicyFault,
} from './policy-backend.ts';
import { JsonTooDeepError, parseJsonBounded } from '../../common/bounded-json.ts';
import { AgentTurns } from './agent-turns.ts';

export { PolicyRequestError, TurnLimitError, type PolicyFault, type PolicyFaultKind } from './policy-backend.ts';

export interface PolicyHostOptions {
  requestTimeoutMs: number;
  startTimeoutMs?: number;
  /** The agent's deadline on performance.now()'s clock: no request waits past it. */
  deadlineMs?: number;
  maxAgentRequests?: number;
  turnLog?: TurnLog;
}

interface Pending {
  resolve: (completion: PolicyCompletion) => void;
  reject: (error: PolicyRequestError) => void;
  timer: NodeJS.Timeout;
}

// policy.log keeps its first and its last lines (common/head-tail-lines.ts).
const logHeadLines = 1000;
const logTailLines = 1000;
const maxFaults = 200;

/** The TypeScript backend: the policy bundle in its no-network sandbox, spoken to over its channel. */
export class PolicyHost implements PolicyBackend {
  readonly faults: PolicyFault[] = [];
  readonly logLines = new HeadTailLines(logHeadLines, logTailLines);
  requestsServed = 0;
  sandboxLost: string | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly turns: AgentTurns;
  private sandbox: PolicySandbox | undefined;
  private readyWaiter: { resolve: () => void; reject: (error: Error) => void } | undefined;
  private stopping = false;

  private constructor(
    private readonly gateway: ModelGateway,
    private readonly options: PolicyHostOptions,
  ) {
    this.turns = new AgentTurns(options);
  }

  static async start(
    docker: Docker,
    spec: PolicySandboxSpec,
    gateway: ModelGateway,
    options: PolicyHostOptions,
  ): Promise<PolicyHost> {
    const host = new PolicyHost(gateway, options);
    host.sandbox = await PolicySandbox.start(
      docker,
      spec,
      (line) => host.onLine(line),
      () =>
        host.fault({ kind: 'protocol_violation', message: 'the policy wrote a line longer than the protocol allows' }),
    );
    host.sandbox.onExit((exit) => host.onSandboxExit(exit));
    const ready = new Promise<void>((resolve, reject) => {
      host.readyWaiter = { resolve, reject };
    });
    host.sandbox.send({
      t: 'init',
      bundlePath: bundlePathInSandbox,
      models: host.modelInfo(),
      budget: gateway.ledger.view(),
    });
    const startTimeoutMs = options.startTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        ready,
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`the policy did not start within ${startTimeoutMs / 1000}s`)),
            startTimeoutMs,
          );
        }),
      ]);
    } catch (error) {
      // Killed from outside while it started: lost to the infrastructure, not a start failure.
      if (!host.sandboxLost) host.fault({ kind: 'start_failed', message: (error as Error).message });
    } finally {
      clearTimeout(timer);
    }
    return host;
  }

  private modelInfo(): ModelInfo[] {
    return this.gateway.modelList().map((m) => ({
      id: m.id,
      inputUsdPerMillion: m.pricing.inputUsdPerMillion,
      cachedInputUsdPerMillion: m.pricing.cachedInputUsdPerMillion,
      outputUsdPerMillion: m.pricing.outputUsdPerMillion,
      contextWindow: m.contextWindow,
      maxOutputTokens: m.maxOutputTokens,
      supportsTools: m.supportsTools,
    }));
  }

  get healthy(): boolean {
    return (
      !this.faults.some((f) => f.kind === 'start_failed' || f.kind === 'crash') && this.sandbox?.exitInfo === undefined
    );
  }

  private fault(fault: PolicyFault): void {
    if (this.faults.length < maxFaults) this.faults.push(fault);
    this.log(`[fault ${fault.kind}] ${fault.message}`);
  }

  private log(line: string): void {
    this.logLines.push(line.slice(0, 2000));
  }

  /**
   * The sandbox stopped while the host was not stopping it: a crash of the policy, unless it was
   * killed from outside — then the infrastructure lost it (`sandboxLost`; the attempt is tried again).
   */
  private onSandboxExit(exit: SandboxExit): void {
    if (this.stopping) return;
    const { reason } = exit;
    if (killedFromOutside(exit)) {
      this.sandboxLost = reason;
      this.log(`[sandbox lost] ${reason}`);
    } else {
      const output = this.sandbox?.output.text().slice(-1000) ?? '';
      this.fault({ kind: 'crash', message: `${reason}${output ? `; output: ${output}` : ''}` });
    }
    this.readyWaiter?.reject(new Error(reason));
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new PolicyRequestError(502, { kind: 'crash', requestId: id, message: reason }));
    }
    this.pending.clear();
  }

  private onLine(line: string): void {
    let raw: unknown;
    try {
      raw = parseJsonBounded(line);
    } catch (error) {
      return this.fault({
        kind: 'protocol_violation',
        message: `${error instanceof JsonTooDeepError ? error.message : 'not JSON'}: ${line.slice(0, 200)}`,
      });
    }
    const parsed = runnerMessageSchema.safeParse(raw);
    if (!parsed.success)
      return this.fault({ kind: 'protocol_violation', message: `unknown message: ${line.slice(0, 200)}` });
    const message = parsed.data;
    switch (message.t) {
      case 'ready':
        this.readyWaiter?.resolve();
        return;
      case 'fatal':
        this.readyWaiter?.reject(new Error(`the policy failed to load: ${message.message}`));
        return this.fault({ kind: 'policy_exception', message: message.message });
      case 'log':
        return this.log(`${message.requestId ?? '-'} ${message.level}: ${message.message}`);
      case 'call':
        return void this.serveCall(message);
      case 'response':
      case 'error': {
        const pending = this.pending.get(message.id);
        if (!pending)
          return this.fault({
            kind: 'protocol_violation',
            requestId: message.id,
            message: 'answer for a request that is not open',
          });
        this.pending.delete(message.id);
        clearTimeout(pending.timer);
        if (message.t === 'error') {
          const fault: PolicyFault = { kind: 'policy_exception', requestId: message.id, message: message.message };
          this.fault(fault);
          return pending.reject(new PolicyRequestError(502, fault));
        }
        const checked = checkPolicyCompletion(message.body);
        if (!checked.ok) {
          const fault: PolicyFault = { kind: 'malformed_response', requestId: message.id, message: checked.reason };
          this.fault(fault);
          return pending.reject(new PolicyRequestError(502, fault));
        }
        this.requestsServed += 1;
        return pending.resolve(checked.completion);
      }
    }
  }

  private async serveCall(message: {
    callId: string;
    requestId: string;
    model: string;
    body: Record<string, unknown>;
    options: { maxTokens?: number; branch?: string };
  }): Promise<void> {
    const sandbox = this.sandbox;
    if (!sandbox) return;
    if (!this.pending.has(message.requestId)) {
      // Calls must belong to an open request: no spending between requests.
      sandbox.send({
        t: 'call_result',
        callId: message.callId,
        ok: false,
        error: { status: 409, type: 'invalid_request', message: 'no open request with this id', retryable: false },
        budget: this.gateway.ledger.view(),
      });
      return;
    }
    const { stream: _stream, stream_options: _streamOptions, ...body } = message.body;
    try {
      const completion = await this.gateway.complete(body, {
        model: message.model,
        maxTokens: message.options.maxTokens,
        branch: message.options.branch,
        requestId: message.requestId,
      });
      sandbox.send({
        t: 'call_result',
        callId: message.callId,
        ok: true,
        body: completion,
        budget: this.gateway.ledger.view(),
      });
    } catch (error) {
      const mapped =
        error instanceof GatewayError ? error : new GatewayError(502, 'upstream_error', (error as Error).message, true);
      sandbox.send({
        t: 'call_result',
        callId: message.callId,
        ok: false,
        error: mapped.toJSON(),
        budget: this.gateway.ledger.view(),
      });
    }
  }

  /** The backend's answer: a whole completion (the endpoint re-cuts it into chunks for a stream). */
  async answer(request: AgentRequestBody): Promise<PolicyAnswer> {
    const { stream: _stream, stream_options: _streamOptions, ...body } = request;
    return { kind: 'completion', completion: await this.complete(body as AgentRequestBody) };
  }

  logText(): string {
    return this.logLines.lines().join('\n') + '\n';
  }

  /** One agent request through the policy; rejects with PolicyRequestError on any policy fault. */
  async complete(body: { messages: unknown[] } & Record<string, unknown>): Promise<PolicyCompletion> {
    const turn = this.turns.begin(body);
    const id = turn.id;
    const record = (outcome: { response?: PolicyCompletion; error?: PolicyFault }) =>
      turn.record({ response: outcome.response?.choices[0]?.message, error: outcome.error });
    try {
      const completion = await this.forward(id, body);
      record({ response: completion });
      return completion;
    } catch (error) {
      if (error instanceof PolicyRequestError) record({ error: error.fault });
      throw error;
    }
  }

  private forward(id: string, body: unknown): Promise<PolicyCompletion> {
    const sandbox = this.sandbox;
    if (!sandbox || !this.healthy) {
      return Promise.reject(
        new PolicyRequestError(503, { kind: 'crash', requestId: id, message: 'the policy is not running' }),
      );
    }
    // A request never waits past the agent's own deadline: a silent policy ends the run on time.
    const untilDeadline =
      this.options.deadlineMs === undefined ? Infinity : this.options.deadlineMs - performance.now();
    const timeoutMs = Math.max(1, Math.floor(Math.min(this.options.requestTimeoutMs, untilDeadline)));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        const fault: PolicyFault = {
          kind: 'timeout',
          requestId: id,
          message: `the policy did not answer within ${(timeoutMs / 1000).toFixed(1)}s`,
        };
        this.fault(fault);
        reject(new PolicyRequestError(504, fault));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      sandbox.send({ t: 'request', id, body, budget: this.gateway.ledger.view() });
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const pending of this.pending.values()) clearTimeout(pending.timer);
    await this.sandbox?.stop();
  }
}
