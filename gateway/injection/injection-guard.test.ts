import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InjectionGuard, walkStrings, type HiddenPiece } from './injection-guard.ts';
import { indexPhrases, scanPhrases } from './phrase-index.ts';
import { isInjectionViolation } from '../../contracts/injection.ts';

const piece = (display: string, kind = 'solution-line'): HiddenPiece => ({
  text: (display.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' '),
  kind,
  scenario: 'fix-ledger',
  display,
});

const pieces = [
  piece("sed -i 's/total_cents/amount_cents/' /app/ledger.py"),
  piece('test_reconciles_march_ledger', 'test-name'),
  piece('48213977', 'expected-value'),
  piece('ACCT-7731-QX', 'fixture-value'),
];

const found = (text: string, list: readonly HiddenPiece[] = pieces) => {
  const positions: number[] = [];
  scanPhrases(indexPhrases(list), text, (position) => positions.push(position));
  return positions;
};

test('phrases are found as whole-word sequences whatever the case, quoting and line breaks', () => {
  assert.deepEqual(found('run: SED -i "s/total_cents/amount_cents/"\n  /app/ledger.py now'), [0]);
  assert.deepEqual(found('expect 48213977.'), [2]);
  assert.deepEqual(found('expect 482139770 and test_reconciles_march_ledgers'), []);
  // JSON escaped once more (a description holding a JSON string): `\n` separates as a newline does.
  assert.deepEqual(found('{\\"x\\": \\"acct-7731-qx\\"}\\nsed -i s/total_cents/amount_cents/ /app/ledger.py'), [3, 0]);
});

test("an escape reads the same at every level of encoding: the agent's text and a prompt quoting it as JSON agree", () => {
  // A test file holding `stdin="15m\\n\\n1m30s"` (a literal backslash-n), given to an adviser as JSON
  // (`\\\\n`): flash-advisers' probe was refused for "n1m30s" carried in, the agent having sent `\\n1m30s`.
  const guard = new InjectionGuard([piece('1m30s 16m', 'fixture-value'), piece('ACCT-7731-QX', 'fixture-value')]);
  const agentText = 'assert run("sum", stdin="15m\\n\\n1m30s 16m\\n")';
  guard.noteAgentRequest({ messages: [{ role: 'tool', content: agentText }] });
  const asJson = JSON.stringify(JSON.stringify({ role: 'tool', content: agentText }));
  assert.equal(guard.check({ messages: [{ role: 'user', content: `advise on ${asJson}` }] }, 'c1'), undefined);
  assert.equal(guard.summary().injectedPieces, 0);
  assert.deepEqual(found('x\\\\nacct-7731-qx\\\\u00e9'), [3]);
  assert.deepEqual(found('nacct-7731-qx'), []);
});

test('non-ASCII letters are word characters, as in the screening normal form', () => {
  const list = [piece('Größe prüfen ÄÖÜ', 'test-string')];
  assert.deepEqual(found('bitte GRÖSSE... nein: größe Prüfen äöü!', list), [0]);
  assert.deepEqual(found('größeprüfen äöü', list), []);
});

test('every field is read: keys of parameter schemas, tool descriptions, response_format, unknown fields', () => {
  const body = {
    messages: [{ role: 'user', content: 'hi' }],
    tools: [{ type: 'function', function: { name: 'x', parameters: { properties: { acct_7731_qx: {} } } } }],
    response_format: { type: 'json_schema', json_schema: { name: 'test_reconciles_march_ledger' } },
    extra: ['48213977'],
  };
  const seen: string[] = [];
  walkStrings(body, (text, field) => {
    if (found(text).length) seen.push(field());
  });
  assert.deepEqual(seen, [
    'tools[0].function.parameters.properties.acct_7731_qx (key)',
    'response_format.json_schema.name',
    'extra[0]',
  ]);
});

test('pieces the agent sent or a model answered are given; two carried in end the episode with the evidence', () => {
  let stopped = 0;
  const guard = new InjectionGuard(pieces, { onViolation: () => (stopped += 1) });
  guard.noteAgentRequest({ messages: [{ role: 'tool', content: 'ACCT-7731-QX 100\n' }] });
  guard.noteModelAnswer({
    choices: [{ message: { role: 'assistant', content: 'Run test_reconciles_march_ledger first.' } }],
  });
  const given = {
    messages: [
      { role: 'system', content: 'You are careful.' },
      { role: 'tool', content: 'acct-7731-qx' },
      { role: 'assistant', content: 'see test_reconciles_march_ledger' },
    ],
  };
  assert.equal(guard.check(given, 'call-1'), undefined);
  assert.equal(guard.summary().injectedPieces, 0);
  const oneHint = { messages: [{ role: 'system', content: 'The answer is 48213977.' }] };
  assert.equal(guard.check(oneHint, 'call-2'), undefined);
  const coached = {
    messages: [{ role: 'user', content: 'go' }],
    tools: [
      {
        type: 'function',
        function: { name: 'fix', description: "sed -i 's/total_cents/amount_cents/' /app/ledger.py", parameters: {} },
      },
    ],
  };
  const refusal = guard.check(coached, 'call-3');
  assert.equal(refusal?.type, 'injected_scenario_content');
  assert.equal(refusal?.status, 403);
  assert.equal(stopped, 1);
  const summary = guard.summary();
  assert.equal(summary.checkedCalls, 3);
  assert.equal(summary.injectedPieces, 2);
  assert.ok(isInjectionViolation(summary));
  assert.deepEqual(
    summary.evidence.map((item) => [item.callId, item.field, item.kind]),
    [
      ['call-2', 'messages[0].content', 'expected-value'],
      ['call-3', 'tools[0].function.description', 'solution-line'],
    ],
  );
  // Every later call is refused the same way, without scanning again.
  assert.equal(guard.check(given, 'call-4'), refusal);
});

test('a streamed answer is folded before it is read: a piece split across chunks is still given', () => {
  const guard = new InjectionGuard(pieces);
  guard.noteModelAnswer([
    { choices: [{ index: 0, delta: { content: "sed -i 's/total_ce" } }] },
    { choices: [{ index: 0, delta: { content: "nts/amount_cents/' /app/led" } }] },
    { choices: [{ index: 0, delta: { content: 'ger.py and 48213977' } }] },
  ]);
  const body = {
    messages: [{ role: 'user', content: "sed -i 's/total_cents/amount_cents/' /app/ledger.py 48213977" }],
  };
  assert.equal(guard.check(body, 'call-1'), undefined);
  assert.equal(guard.summary().injectedPieces, 0);
});

test('time is linear in the request: a 600 k-character request of near misses scans in well under a second', () => {
  const guard = new InjectionGuard(pieces);
  const nearMiss = "sed -i 's/total_cents/amount_cents/' /app/ledgers.py ".repeat(12_000);
  const started = performance.now();
  assert.equal(guard.check({ messages: [{ role: 'user', content: nearMiss }] }, 'call-1'), undefined);
  assert.ok(performance.now() - started < 1000);
});

test('a body nested deeper than any stack is walked without overflowing', () => {
  let body: unknown = '48213977 ACCT-7731-QX';
  for (let depth = 0; depth < 200_000; depth++) body = [body];
  const guard = new InjectionGuard(pieces);
  assert.equal(
    guard.check({ messages: [{ role: 'user', content: 'x' }], deep: body }, 'call-1')?.type,
    'injected_scenario_content',
  );
});

test('through the gateway: the call that carries the content in is refused before the upstream and logged, nothing reserved', async () => {
  const { ModelGateway } = await import('../model-gateway.ts');
  const { CallLog } = await import('../call-log.ts');
  const { defaultAllowlistFile, loadAllowlist } = await import('../catalog/allowlist.ts');
  let upstreamCalls = 0;
  const upstream = {
    chat: {
      completions: {
        async create(body: { model: string }) {
          upstreamCalls += 1;
          return {
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 0,
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 10, completion_tokens: 1 },
          };
        },
      },
    },
  };
  const callLog = new CallLog();
  const gateway = new ModelGateway({
    allowlist: loadAllowlist(defaultAllowlistFile),
    upstream: upstream as never,
    capUsd: 1,
    callLog,
    seed: 1,
    requestGuard: new InjectionGuard(pieces),
  });
  await gateway.complete({ messages: [{ role: 'user', content: 'list the files' }] }, { model: 'glm-5.3-flash' });
  const coached = {
    messages: [
      { role: 'system', content: "Expect 48213977; then sed -i 's/total_cents/amount_cents/' /app/ledger.py" },
    ],
  };
  await assert.rejects(gateway.complete(coached, { model: 'glm-5.3-flash' }), { type: 'injected_scenario_content' });
  assert.equal(upstreamCalls, 1);
  assert.deepEqual(
    callLog.entries.map((entry) => [entry.status, entry.errorType]),
    [
      ['ok', undefined],
      ['refused', 'injected_scenario_content'],
    ],
  );
  assert.equal(gateway.budget().reserved_usd, 0);
});
