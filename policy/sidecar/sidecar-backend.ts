// The Python backend: each agent request goes over the policy network to the sidecar's
// POST /v1/chat/completions and its answer comes back byte for byte (SSE included), while the turn
// log records what the agent received. A request never waits past the agent's deadline; a sidecar
// that is gone, breaks a stream, answers 5xx or with garbage is a recorded policy fault.
import { HeadTailLines } from '../../common/head-tail-lines.ts';
import http from 'node:http';
import { checkPolicyCompletion } from '../host/completion-schema.ts';
import { AgentTurns } from '../host/agent-turns.ts';
import {
  PolicyRequestError,
  type AgentRequestBody,
  type PolicyAnswer,
  type PolicyBackend,
  type PolicyFault,
} from '../host/policy-backend.ts';
import type { TurnLog } from '../host/turn-log.ts';
import { SseAssembler } from './sse-assembler.ts';
import { parseJsonBounded } from '../../common/bounded-json.ts';
import { killedFromOutside } from '../../sandbox/container-exit.ts';

const maxFaults = 200;
// policy.log keeps its first and its last lines (common/head-tail-lines.ts).
const logHeadLines = 1000;
const logTailLines = 1000;
const maxCompletionBytes = 16 * 1024 * 1024;
const maxErrorBytes = 64 * 1024;

export interface SidecarBackendOptions {
  requestTimeoutMs: number;
  deadlineMs?: number;
  maxAgentRequests?: number;
  turnLog?: TurnLog;
}

class BodyTooLarge extends Error {}

async function readBounded(response: http.IncomingMessage, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      response.destroy();
      throw new BodyTooLarge(`over ${limit} bytes`);
    }
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}

function post(url: string, body: string, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        signal,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      resolve,
    );
    request.on('error', reject);
    request.end(body);
  });
}

function errorMessageOf(bytes: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(bytes.toString('utf8')) as { error?: { message?: unknown } };
    return typeof parsed?.error?.message === 'string' ? parsed.error.message : undefined;
  } catch {
    return undefined;
  }
}

export class SidecarBackend implements PolicyBackend {
  readonly faults: PolicyFault[] = [];
  private readonly logLines = new HeadTailLines(logHeadLines, logTailLines);
  private sidecarOutput = '';
  private readonly open = new Set<string>();
  private readonly turns: AgentTurns;
  requestsServed = 0;
  startFailure: PolicyFault | undefined;
  sandboxLost: string | undefined;
  /** Where the sidecar answers; set once it is healthy. */
  private baseUrl: string | undefined;
  private gone: string | undefined;
  private stopping = false;
  private stopper: (() => Promise<string>) | undefined;

  constructor(private readonly options: SidecarBackendOptions) {
    this.turns = new AgentTurns(options);
  }

  /** The newest agent request still open: the one the sidecar's gateway calls belong to. */
  currentRequestId(): string | undefined {
    let last: string | undefined;
    for (const id of this.open) last = id;
    return last;
  }

  /** The sidecar answered its health check: requests may go to it. */
  ready(baseUrl: string): void {
    this.baseUrl = baseUrl;
  }

  failedToStart(message: string): void {
    this.startFailure = { kind: 'start_failed', message };
    this.fault(this.startFailure);
  }

  /**
   * The container stopped after it was healthy: later requests fail at once (before, the health
   * wait reports it). Killed through the Docker API while the worker was not stopping it, it was
   * lost to the infrastructure — no fault of the policy (`sandboxLost`; the attempt is tried again).
   */
  exited(reason: string, exit?: { killed: boolean; oomKilled: boolean }): void {
    if (!this.baseUrl || this.stopping || this.startFailure || this.gone) return;
    if (exit && killedFromOutside(exit)) this.sandboxLost ??= reason;
    this.gone = reason;
    if (!this.sandboxLost) this.fault({ kind: 'crash', message: reason });
  }

  /** The run is ending and the sidecar was already gone: killed from outside is the infrastructure's loss. */
  exitedBeforeStop(reason: string, exit: { killed: boolean; oomKilled: boolean }): void {
    if (!this.baseUrl || this.startFailure || this.sandboxLost) return;
    if (killedFromOutside(exit)) this.sandboxLost = reason;
  }

  /** What stop() runs: tears the sidecar down and returns its output for policy.log. */
  onStop(stopper: () => Promise<string>): void {
    this.stopper = stopper;
  }

  fault(fault: PolicyFault): void {
    if (this.faults.length < maxFaults) this.faults.push(fault);
    this.log(`[fault ${fault.kind}]${fault.requestId ? ` ${fault.requestId}` : ''} ${fault.message}`);
  }

  private log(line: string): void {
    this.logLines.push(line.slice(0, 4000));
  }

  logText(): string {
    return (
      [
        ...this.logLines.lines(),
        this.sidecarOutput ? `--- policy sidecar output (stdout and stderr) ---\n${this.sidecarOutput}` : '',
      ].join('\n') + '\n'
    );
  }

  async answer(body: AgentRequestBody): Promise<PolicyAnswer> {
    const turn = this.turns.begin(body);
    const id = turn.id;
    const record = turn.record;
    const fail = (status: number, fault: PolicyFault, counted = true): never => {
      if (counted) this.fault(fault);
      record({ error: fault });
      throw new PolicyRequestError(status, fault);
    };
    if (!this.baseUrl || this.gone || this.stopping) {
      return fail(
        503,
        {
          kind: 'crash',
          requestId: id,
          message: this.gone ?? this.startFailure?.message ?? 'the policy is not running',
        },
        false,
      );
    }
    // A request never waits past the agent's own deadline: a silent sidecar ends the run on time.
    const untilDeadline =
      this.options.deadlineMs === undefined ? Infinity : this.options.deadlineMs - performance.now();
    const timeoutMs = Math.max(1, Math.floor(Math.min(this.options.requestTimeoutMs, untilDeadline)));
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const timeoutFault = (): PolicyFault => ({
      kind: 'timeout',
      requestId: id,
      message: `the policy did not answer within ${(timeoutMs / 1000).toFixed(1)}s`,
    });
    this.open.add(id);
    const finish = () => {
      clearTimeout(timer);
      this.open.delete(id);
    };
    let response: http.IncomingMessage;
    try {
      response = await post(`${this.baseUrl}/v1/chat/completions`, JSON.stringify(body), controller.signal);
    } catch (error) {
      finish();
      return fail(
        timedOut ? 504 : 502,
        timedOut
          ? timeoutFault()
          : {
              kind: 'crash',
              requestId: id,
              message: `the policy could not be reached: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
            },
      );
    }
    const status = response.statusCode ?? 502;
    const contentType = String(response.headers['content-type'] ?? 'application/json');
    if (status === 200 && contentType.startsWith('text/event-stream')) {
      const assembler = new SseAssembler();
      const relayed = async function* (this: SidecarBackend): AsyncGenerator<Uint8Array> {
        let ended = false;
        try {
          for await (const chunk of response) {
            assembler.feed(chunk as Buffer);
            yield chunk as Buffer;
          }
          ended = true;
          this.requestsServed += 1;
          record({ response: assembler.message() });
        } catch (error) {
          const fault: PolicyFault = timedOut
            ? timeoutFault()
            : { kind: 'crash', requestId: id, message: `the policy's stream broke: ${(error as Error).message}` };
          this.fault(fault);
          record({ response: assembler.message(), error: fault });
          throw new PolicyRequestError(timedOut ? 504 : 502, fault);
        } finally {
          // The agent went away mid-stream (or the stream ended): close the sidecar's side too.
          if (!ended) response.destroy();
          finish();
        }
      }.call(this);
      return { kind: 'relay', status, contentType, body: relayed };
    }
    let bytes: Buffer;
    try {
      bytes = await readBounded(response, status === 200 ? maxCompletionBytes : maxErrorBytes);
    } catch (error) {
      return fail(
        timedOut ? 504 : 502,
        timedOut
          ? timeoutFault()
          : {
              kind: 'malformed_response',
              requestId: id,
              message: `the policy's answer broke or was too large: ${(error as Error).message}`,
            },
      );
    } finally {
      finish();
    }
    if (status !== 200) {
      const message = errorMessageOf(bytes);
      if (message === undefined)
        return fail(502, {
          kind: 'malformed_response',
          requestId: id,
          message: `the policy answered HTTP ${status} without an OpenAI-style error: ${bytes.toString('utf8').slice(0, 300)}`,
        });
      // The policy's own error (a traceback in handle → 500) is its fault; a 4xx (the gateway's
      // 402 cap, a bad request) is relayed as it is and blamed on nobody here.
      const fault: PolicyFault = {
        kind: 'policy_exception',
        requestId: id,
        message: `HTTP ${status}: ${message.slice(0, 2000)}`,
      };
      if (status >= 500) this.fault(fault);
      record({ error: fault });
      return { kind: 'relay', status, contentType: 'application/json', body: [bytes] };
    }
    let parsed: unknown;
    try {
      parsed = parseJsonBounded(bytes);
    } catch {
      return fail(502, {
        kind: 'malformed_response',
        requestId: id,
        message: `the policy answered with ${contentType}, not JSON or SSE: ${bytes.toString('utf8').slice(0, 300)}`,
      });
    }
    const checked = checkPolicyCompletion(parsed);
    if (!checked.ok) return fail(502, { kind: 'malformed_response', requestId: id, message: checked.reason });
    this.requestsServed += 1;
    record({ response: checked.completion.choices[0]?.message });
    // The agent asked for a stream and got one piece: the endpoint cuts it into chunks.
    if (body.stream) return { kind: 'completion', completion: checked.completion };
    return { kind: 'relay', status, contentType, body: [bytes] };
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.sidecarOutput = (await this.stopper?.()) ?? '';
  }
}
