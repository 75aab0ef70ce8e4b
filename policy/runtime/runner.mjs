// The policy runner: runs inside the policy sandbox as `node runner.mjs` (Node 18+, no dependencies)
// and speaks the protocol of policy/runtime/protocol.ts, one JSON object per line, over the unix
// socket named by TRL_POLICY_CHANNEL (the host's end, the only way out of a sandbox without a network):
//   host → runner  init {bundlePath, models, budget} · request {id, body, budget} · call_result
//   runner → host  ready · fatal · call · log · response · error
// The channel is a socket rather than stdin / stdout because the attached stdio of a container passes
// through the Docker daemon both ways: about 0.2 ms more per crossing, four crossings per model call.
// The policy's own output never reaches the channel directly: console.* and process.stdout.write
// become `log` messages, and protocol lines go out through writeLine alone.
import { AsyncLocalStorage } from 'node:async_hooks';
import net from 'node:net';
import { pathToFileURL } from 'node:url';
import { formatWithOptions } from 'node:util';

const maxLineBytes = 4 * 1024 * 1024; // protocol.ts maxProtocolLineBytes
const maxLogChars = 2_000;
const maxLogsPerRequest = 200;
const maxLogsOutsideRequests = 1_000;
const maxMessageChars = 10_000;
const maxBranchChars = 100;
const maxModelChars = 200;

// ── The channel: the one writer ────────────────────────────────────────────────────────────────

const channelPath = process.env.TRL_POLICY_CHANNEL;
if (!channelPath) {
  process.stderr.write('runner: TRL_POLICY_CHANNEL names no socket; the host starts the runner with one\n');
  process.exit(2);
}
// The host accepts one connection, this one: a policy that finds the path cannot open a second.
const channel = net.connect(channelPath);
delete process.env.TRL_POLICY_CHANNEL; // the policy's process.env holds nothing of the host's
const channelWrite = channel.write.bind(channel);
let closing = false;

function serialise(message) {
  try {
    return JSON.stringify(message);
  } catch (error) {
    return undefined;
  }
}

/** Writes one protocol message; returns false when it cannot be serialised or is too long. */
function writeLine(message) {
  const line = serialise(message);
  if (line === undefined || Buffer.byteLength(line, 'utf8') + 1 > maxLineBytes) return false;
  if (!closing) channelWrite(`${line}\n`);
  return true;
}

// The host went away (or refused the connection): no call can finish, so leave, whatever timers
// the policy holds. A host that ends its side gets ours ended after what was written (no half-open).
function hostGone() {
  closing = true;
  process.exit(0);
}
channel.on('error', hostGone);
channel.on('close', hostGone);

// ── Logs: bounded, attributed to the request that produced them ───────────────────────────────

const requestScope = new AsyncLocalStorage();
let logsOutsideRequests = 0;

function truncate(text, limit) {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

function formatValues(values) {
  try {
    return formatWithOptions(
      { depth: 4, breakLength: Infinity, maxArrayLength: 50, maxStringLength: maxLogChars },
      ...values,
    );
  } catch (error) {
    return '(unprintable log values)';
  }
}

function emitLog(scope, level, values) {
  const used = scope ? scope.logs : logsOutsideRequests;
  const limit = scope ? maxLogsPerRequest : maxLogsOutsideRequests;
  if (used >= limit) return;
  if (scope) scope.logs += 1;
  else logsOutsideRequests += 1;
  // The last allowed line says that lines are being dropped, so the trace shows the cut.
  const message =
    used === limit - 1
      ? `log limit of ${limit} lines reached; later lines are dropped`
      : truncate(formatValues(values), maxLogChars);
  writeLine(scope ? { t: 'log', requestId: scope.id, level, message } : { t: 'log', level, message });
}

function logFromPolicy(level, values) {
  emitLog(requestScope.getStore(), level, values);
}

const consoleLevels = {
  debug: 'debug',
  trace: 'debug',
  log: 'info',
  info: 'info',
  dir: 'info',
  table: 'info',
  warn: 'warn',
  error: 'error',
  assert: 'error',
};
for (const [method, level] of Object.entries(consoleLevels)) {
  console[method] =
    method === 'assert'
      ? (condition, ...values) => {
          if (!condition) logFromPolicy(level, ['Assertion failed', ...values]);
        }
      : (...values) => logFromPolicy(level, values);
}
process.stdout.write = (chunk, encoding, callback) => {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  logFromPolicy('info', [text.replace(/\n$/, '')]);
  const done = typeof encoding === 'function' ? encoding : callback;
  if (typeof done === 'function') queueMicrotask(done);
  return true;
};

process.on('unhandledRejection', (reason) =>
  logFromPolicy('error', ['unhandled rejection:', reason instanceof Error ? (reason.stack ?? reason.message) : reason]),
);
process.on('uncaughtException', (error) =>
  logFromPolicy('error', ['uncaught exception:', error instanceof Error ? (error.stack ?? error.message) : error]),
);

// ── Calls: ctx.call → `call`, `call_result` → the awaiting promise ──────────────────────────────

const callErrorBrand = Symbol.for('trl.policy-call-error'); // policy/sdk/call-error.ts
let budget = { capUsd: 0, spentUsd: 0, remainingUsd: 0 };
let models = [];
const pendingCalls = new Map();
let callCounter = 0;

function callError(status, type, message, retryable) {
  const error = new Error(message);
  error.name = 'PolicyCallError';
  error.status = status;
  error.type = type;
  error.retryable = retryable;
  Object.defineProperty(error, callErrorBrand, { value: true });
  return error;
}

function invalidCall(message) {
  return Promise.reject(callError(400, 'invalid_request', message, false));
}

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function startCall(scope, model, body, options) {
  if (scope.answered)
    return invalidCall(`request ${scope.id} has already been answered; calls after the response are refused`);
  if (typeof model !== 'string' || model === '' || model.length > maxModelChars)
    return invalidCall('ctx.call needs a model id string as its first argument');
  if (!isPlainObject(body))
    return invalidCall('ctx.call needs a chat-completions request object as its second argument');
  if (options !== undefined && !isPlainObject(options))
    return invalidCall('ctx.call options must be an object such as { maxTokens: 1024 }');
  const sent = {};
  if (options?.maxTokens !== undefined) {
    const maxTokens = Math.floor(Number(options.maxTokens));
    if (!Number.isFinite(maxTokens) || maxTokens < 1)
      return invalidCall(`ctx.call options.maxTokens must be a positive integer, got ${String(options.maxTokens)}`);
    sent.maxTokens = maxTokens;
  }
  if (options?.branch !== undefined) sent.branch = truncate(String(options.branch), maxBranchChars);
  callCounter += 1;
  const callId = `c${callCounter}`; // unique for the runner's life, short whatever the request id
  return new Promise((resolve, reject) => {
    pendingCalls.set(callId, { resolve, reject });
    if (!writeLine({ t: 'call', callId, requestId: scope.id, model, body, options: sent })) {
      pendingCalls.delete(callId);
      reject(
        callError(
          413,
          'invalid_request',
          'the call body cannot be sent: it is not JSON-serialisable or larger than 4 MiB',
          false,
        ),
      );
    }
  });
}

function settleCall(message) {
  const pending = pendingCalls.get(message.callId);
  if (!pending) return;
  pendingCalls.delete(message.callId);
  if (message.ok) {
    pending.resolve(message.body);
    return;
  }
  const error = isPlainObject(message.error) ? message.error : {};
  pending.reject(
    callError(
      typeof error.status === 'number' ? error.status : 500,
      typeof error.type === 'string' ? error.type : 'upstream_error',
      typeof error.message === 'string' ? error.message : 'the model call failed',
      error.retryable === true,
    ),
  );
}

// ── Requests ────────────────────────────────────────────────────────────────────────────────────

let policy;
let initialised; // a promise, set by init; requests wait on it

function createContext(scope) {
  return {
    call: (model, body, options) => startCall(scope, model, body, options),
    models: models.map((model) => ({ ...model })),
    get budget() {
      return { ...budget };
    },
    log: (...values) => emitLog(scope, 'info', values),
  };
}

function errorText(error) {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : formatValues([error]);
}

async function handleRequest(message) {
  const scope = { id: String(message.id), logs: 0, answered: false };
  let reply;
  try {
    if (!initialised) throw new Error('the runner received a request before init');
    await initialised;
    if (!policy) throw new Error('the policy failed to load');
    const body = await requestScope.run(scope, () => policy.complete(message.body, createContext(scope)));
    reply = isPlainObject(body)
      ? { t: 'response', id: scope.id, body }
      : {
          t: 'error',
          id: scope.id,
          message: `the policy returned ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body} instead of a chat completion object`,
        };
  } catch (error) {
    reply = { t: 'error', id: scope.id, message: truncate(`the policy failed: ${errorText(error)}`, maxMessageChars) };
  }
  scope.answered = true;
  if (!writeLine(reply))
    writeLine({
      t: 'error',
      id: scope.id,
      message: 'the policy returned a completion that is not JSON-serialisable or larger than 4 MiB',
    });
}

async function loadPolicy(bundlePath) {
  try {
    const module = await import(pathToFileURL(bundlePath).href);
    const candidate = module.default;
    if (!candidate || typeof candidate.complete !== 'function') {
      writeLine({
        t: 'fatal',
        message:
          "the bundle's default export is not a policy: export default definePolicy({ async complete(request, ctx) { … } })",
      });
      return;
    }
    policy = candidate;
    writeLine({ t: 'ready' });
  } catch (error) {
    writeLine({
      t: 'fatal',
      message: truncate(
        `the policy bundle failed to load: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        maxMessageChars,
      ),
    });
  }
}

function updateBudget(next) {
  if (isPlainObject(next) && ['capUsd', 'spentUsd', 'remainingUsd'].every((key) => typeof next[key] === 'number')) {
    budget = { capUsd: next.capUsd, spentUsd: next.spentUsd, remainingUsd: next.remainingUsd };
  }
}

function handleMessage(message) {
  if (!isPlainObject(message)) return;
  updateBudget(message.budget);
  switch (message.t) {
    case 'init':
      if (initialised) {
        emitLog(undefined, 'warn', ['a second init was ignored']);
        return;
      }
      models = Array.isArray(message.models) ? message.models : [];
      initialised = loadPolicy(String(message.bundlePath));
      return;
    case 'request':
      void handleRequest(message);
      return;
    case 'call_result':
      settleCall(message);
      return;
    default:
      emitLog(undefined, 'warn', [`unknown host message type ${String(message.t)}`]);
  }
}

// ── Input: newline-delimited JSON on the channel ─────────────────────────────────────────────────

let buffered = '';
channel.setEncoding('utf8');
channel.on('data', (chunk) => {
  const scanned = buffered.length; // a long line arrives in many chunks: scan only the new part
  buffered += chunk;
  let newline = buffered.indexOf('\n', scanned);
  while (newline >= 0) {
    const line = buffered.slice(0, newline).trim();
    buffered = buffered.slice(newline + 1);
    if (line !== '') {
      let message;
      try {
        message = JSON.parse(line);
      } catch (error) {
        emitLog(undefined, 'warn', [`the host sent a line that is not JSON (${line.length} characters)`]);
      }
      if (message !== undefined) handleMessage(message);
    }
    newline = buffered.indexOf('\n');
  }
  if (buffered.length > maxLineBytes) {
    emitLog(undefined, 'warn', ['the host sent a line longer than 4 MiB; it was dropped']);
    buffered = '';
  }
});
