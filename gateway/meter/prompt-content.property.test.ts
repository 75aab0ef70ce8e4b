// Adversarial content through the real gateway, billed by a worst-case tokenizer stand-in (the
// schedule property against the meter alone is episode-meter.property.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import OpenAI from 'openai';
import { ModelGateway } from '../model-gateway.ts';
import { CallLog } from '../call-log.ts';
import { GatewayError } from '../gateway-error.ts';
import { defaultAllowlistFile, loadAllowlist } from '../catalog/allowlist.ts';
import { splitBilledBody } from './prompt-estimate.ts';
import { promptBoundTokens } from './prompt-bound.ts';

//
// The stand-in renders each request as a ChatML-style template would (role headers and special
// tokens per message, tool calls and tool schemas re-serialized as Python's json.dumps does, with a
// space after every `,` and `:`, plus a tool-use preamble) and bills ONE TOKEN PER UTF-8 BYTE of
// that text, each special token as one: the most a byte-level BPE tokenizer can bill. Completions
// use every token of every answer. Content is drawn to defeat character-class estimates: astral
// planes, emoji with joiners, CJK, combining marks, lone surrogates, runs of one letter, JSON
// escapes. Schedules: parallel bursts, streamed and not, n > 1, the policy abandoning calls (its
// client goes, or the episode ends with them in flight), upstream failures after sending.

/** Python's json.dumps(value, ensure_ascii=False) with its default separators `, ` and `: `. */
function pythonJsonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${pythonJsonDumps(item)}`)
      .join(', ')}}`;
  return JSON.stringify(value) ?? 'null';
}

const toolPreamble =
  '# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function ' +
  'signatures within <tools></tools> XML tags:\n<tools>\n';

/** Prompt tokens the stand-in bills: one per UTF-8 byte of the rendered template, one per special token. */
export function worstCasePromptTokens(body: Record<string, unknown>): number {
  let specials = 1; // the generation prompt's start
  let text = 'assistant\n';
  const tools = Array.isArray(body.tools) ? body.tools : [];
  if (tools.length > 0) {
    specials += 2;
    text += `system\n${toolPreamble}${tools.map(pythonJsonDumps).join('\n')}\n</tools>`;
  }
  for (const message of (body.messages ?? []) as Record<string, unknown>[]) {
    specials += 2; // <|im_start|> … <|im_end|>
    text += `${String(message.role)}\n`;
    const content = message.content;
    if (typeof content === 'string') text += content;
    else if (Array.isArray(content))
      for (const part of content) text += String((part as { text?: unknown }).text ?? '');
    for (const call of (message.tool_calls ?? []) as { function: { name: string; arguments: string } }[]) {
      specials += 2; // <tool_call> … </tool_call>
      text += `\n{"name": ${JSON.stringify(call.function.name)}, "arguments": ${call.function.arguments}}\n`;
    }
    text += '\n';
  }
  // A lone surrogate is sent as U+FFFD (3 bytes); Buffer.byteLength counts it so too.
  return specials + Buffer.byteLength(text, 'utf8');
}

const adversarialText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }), // any code point, astral planes included
  fc.string({ unit: 'grapheme', maxLength: 120 }),
  fc
    .constantFrom('𝔘', '😀', '👩‍👩‍👧‍👦', '𠜎', 'é', '\u0301', '字', '\ud800', '"', '\\', '\n', 'a', 'x', '0', ' ')
    .chain((unit) => fc.integer({ min: 1, max: 3000 }).map((count) => unit.repeat(count))),
  fc.array(fc.constantFrom('𝔘𝔙', '🏳️‍🌈', 'ab', '{}', ',:', '\t'), { maxLength: 400 }).map((parts) => parts.join('')),
);

const messageArbitrary = fc.oneof(
  fc.record({ role: fc.constantFrom('system', 'user', 'assistant', 'tool'), content: adversarialText }),
  fc.record({
    role: fc.constant('assistant'),
    content: fc.constant(''),
    tool_calls: fc.array(
      fc.record({
        id: fc.string({ maxLength: 8 }),
        type: fc.constant('function'),
        function: fc.record({
          name: fc.string({ minLength: 1, maxLength: 12 }),
          arguments: fc
            .dictionary(fc.string({ maxLength: 6 }), adversarialText, { maxKeys: 4 })
            .map((args) => JSON.stringify(args)),
        }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  }),
  fc.record({
    role: fc.constant('user'),
    content: fc.array(fc.record({ type: fc.constant('text'), text: adversarialText }), { minLength: 1, maxLength: 3 }),
  }),
);

const toolArbitrary = fc.record({
  type: fc.constant('function'),
  function: fc.record({
    name: fc.string({ minLength: 1, maxLength: 12 }),
    parameters: fc.record({
      type: fc.constant('object'),
      properties: fc.dictionary(
        fc.string({ maxLength: 6 }),
        fc.record({ enum: fc.array(fc.integer(), { maxLength: 30 }) }),
        {
          maxKeys: 5,
        },
      ),
    }),
  }),
});

const callArbitrary = fc.record({
  messages: fc.array(messageArbitrary, { minLength: 1, maxLength: 6 }),
  tools: fc.option(fc.array(toolArbitrary, { maxLength: 4 }), { nil: undefined }),
  model: fc.constantFrom('kimi-k3', 'glm-5.3', 'deepseek-v4-flash-0731', 'qwen3.8-27b'),
  maxTokens: fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 60_000 })),
  n: fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 4 })),
  streamed: fc.boolean(),
  fate: fc.constantFrom('answer', 'answer', 'answer', 'fail-after-send', 'client-leaves', 'left-at-end'),
});

const worstChargedOverCap = { honest: 0, overbilling: 0 };

test('adversarial content, parallel schedules and a worst-case tokenizer: Σ charged ≤ cap, and the bound holds', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1_000, max: 1_000_000 }).map((microUsd) => microUsd / 1e6),
      fc.array(callArbitrary, { minLength: 1, maxLength: 24 }),
      // Tokens the upstream bills beyond its tokenizer: 0 (honest), or far past the bound.
      fc.constantFrom(0, 0, 100_000),
      async (capUsd, calls, overbillTokens) => {
        const log = new CallLog();
        const boundExceeded: number[] = [];
        const holds: (() => void)[] = [];
        const upstream = {
          chat: {
            completions: {
              create(body: Record<string, unknown>, options: { signal?: AbortSignal }) {
                const fate = fatesByMessages.get(body.messages as object);
                const worst = worstCasePromptTokens(body);
                const bound = promptBoundTokens(body, splitBilledBody(body).billedJson);
                if (worst > bound) boundExceeded.push(worst - bound);
                const billed = worst + overbillTokens;
                const answers = typeof body.n === 'number' ? body.n : 1;
                const usage = {
                  prompt_tokens: billed,
                  completion_tokens: (body.max_tokens as number) * answers,
                };
                const promise = new Promise((resolve, reject) => {
                  const onAbort = () => reject(new OpenAI.APIUserAbortError());
                  options.signal?.addEventListener('abort', onAbort, { once: true });
                  holds.push(() => {
                    if (fate === 'fail-after-send') return reject(new OpenAI.APIConnectionTimeoutError());
                    if (fate === 'left-at-end') return; // still running when the episode ends
                    resolve(
                      body.stream
                        ? (async function* () {
                            yield { id: 'c', choices: [{ index: 0, delta: { content: 'y' } }] };
                            yield { id: 'c', choices: [], usage };
                          })()
                        : { id: 'c', choices: [{ index: 0, message: { role: 'assistant', content: 'y' } }], usage },
                    );
                  });
                });
                return Object.assign(promise, {
                  withResponse: async () => ({ data: await promise, request_id: 'up' }),
                });
              },
            },
          },
        };
        // The gateway sends the caller's messages array as it is: a call's fate is found through it.
        const fatesByMessages = new WeakMap<object, string>();
        const gateway = new ModelGateway({
          allowlist: loadAllowlist(defaultAllowlistFile),
          upstream: upstream as never,
          capUsd,
          callLog: log,
          seed: 0,
          retryDelaysMs: [],
        });
        const running = calls.map(async (call) => {
          const leave = new AbortController();
          const body: Record<string, unknown> = { messages: call.messages };
          if (call.tools) body.tools = call.tools;
          if (call.maxTokens !== undefined) body.max_tokens = call.maxTokens;
          if (call.n !== undefined) body.n = call.n;
          const options = { model: call.model, signal: leave.signal };
          fatesByMessages.set(call.messages, call.fate);
          try {
            if (call.streamed) {
              const stream = gateway.stream(body, options);
              const first = stream.next();
              if (call.fate === 'client-leaves') leave.abort(new Error('the client closed the connection'));
              for (let next = await first; !next.done; next = await stream.next());
            } else {
              const answer = gateway.complete(body, options);
              if (call.fate === 'client-leaves') leave.abort(new Error('the client closed the connection'));
              await answer;
            }
          } catch (error) {
            assert.ok(error instanceof GatewayError, String(error));
          }
        });
        await new Promise((resolve) => setImmediate(resolve));
        for (const hold of holds.splice(0)) hold();
        // The episode ends: every call still in flight is the policy's abandoned call.
        await gateway.abandonInFlight('the episode ended');
        await Promise.all(running);

        assert.deepEqual(boundExceeded, [], 'the worst-case tokenizer never bills past the bound');
        const charged = gateway.meter.spentNanoUsd;
        assert.ok(charged <= gateway.meter.capNanoUsd, `charged ${charged} n$ of a ${gateway.meter.capNanoUsd} n$ cap`);
        const which = overbillTokens === 0 ? 'honest' : 'overbilling';
        worstChargedOverCap[which] = Math.max(
          worstChargedOverCap[which],
          Number(charged) / Number(gateway.meter.capNanoUsd),
        );
        assert.equal(gateway.meter.openReservationCount, 0, 'every call is booked');
        assert.equal(log.inFlightCount, 0);
        const logged = log.entries.reduce((sum, entry) => sum + BigInt(Math.round(entry.costUsd * 1e9)), 0n);
        assert.equal(logged, charged, 'every nano-dollar is in the call log');
        // Abandoned calls are the policy's: never the upstream's failures.
        const failedUpstream = log.entries.filter((e) => e.status === 'error' && e.errorType === 'upstream_timeout');
        assert.equal(gateway.upstreamFailures, failedUpstream.length + overbilled(log));
        if (overbillTokens === 0) assert.equal(gateway.meter.closed, false, 'an honest upstream never overshoots');
        for (const entry of log.entries)
          if (entry.status === 'error' && entry.errorType !== 'upstream_timeout')
            assert.ok(['abandoned', 'cancelled'].includes(entry.errorType ?? ''), JSON.stringify(entry));
      },
    ),
    { numRuns: Number(process.env.TRL_PROPERTY_RUNS ?? 150) },
  );
  console.log(
    `worst Σ charged / cap over the adversarial-content runs: ${worstChargedOverCap.honest.toFixed(9)} with a ` +
      `worst-case byte-level tokenizer, ${worstChargedOverCap.overbilling.toFixed(9)} with an upstream billing 100,000 ` +
      `tokens past it`,
  );
});

function overbilled(log: CallLog): number {
  return log.entries.filter((entry) => entry.status !== 'refused' && entry.overshootUsd > 0).length;
}
