import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkPolicyJson, fusionModels, parsePolicyJson } from './policy-json-schema.ts';
import { examplesRoot, findPython, pythonRoot } from '../policy/python/testing/python-policy-process.ts';

const valid: unknown[] = [
  { kind: 'pin', model: 'glm-5.3-flash' },
  { kind: 'escalate', cheap: 'qwen3.6-35b-a3b', strong: 'glm-5.3' },
  { kind: 'escalate', cheap: 'qwen3.6-35b-a3b', strong: 'kimi-k3', signals: ['len', 'noprog'], stall_s: 90.5 },
  { kind: 'advisers', writer: 'kimi-k3', advisers: ['deepseek-v4.1-flash', 'qwen3.8-27b', 'glm-5.3-flash'] },
  {
    kind: 'advisers',
    writer: 'glm-5.2',
    advisers: ['glm-5.2', 'glm-5.2'],
    max_tokens: 16,
    temperature: 0,
    every: 1000,
  },
  ...fusionModels.map((model) => ({ kind: 'pin', model })),
];

// [document, the field the one-line message must name]
const invalid: [unknown, string][] = [
  [[], 'the document'],
  ['pin', 'the document'],
  [{}, 'field "kind"'],
  [{ kind: 'route' }, 'field "kind"'],
  [{ kind: 'pin' }, 'field "model"'],
  [{ kind: 'pin', model: 'gpt-4o' }, 'field "model"'],
  [{ kind: 'pin', model: 7 }, 'field "model"'],
  [{ kind: 'pin', model: 'glm-5.3', note: 'x' }, 'field "note"'],
  [{ kind: 'escalate', cheap: 'glm-5.3-flash' }, 'field "strong"'],
  [{ kind: 'escalate', cheap: 'glm-5.3-flash', strong: 'kimi-k3', signals: [] }, 'field "signals"'],
  [{ kind: 'escalate', cheap: 'glm-5.3-flash', strong: 'kimi-k3', signals: 'stall' }, 'field "signals"'],
  [{ kind: 'escalate', cheap: 'glm-5.3-flash', strong: 'kimi-k3', signals: ['stall', 'slow'] }, 'field "signals[1]"'],
  [{ kind: 'escalate', cheap: 'glm-5.3-flash', strong: 'kimi-k3', signals: ['stall', 'stall'] }, 'field "signals[1]"'],
  [{ kind: 'escalate', cheap: 'glm-5.3-flash', strong: 'kimi-k3', stall_s: 0 }, 'field "stall_s"'],
  [{ kind: 'escalate', cheap: 'glm-5.3-flash', strong: 'kimi-k3', stall_s: '60' }, 'field "stall_s"'],
  [{ kind: 'escalate', cheap: 'glm-5.3-flash', strong: 'kimi-k3', stall_s: true }, 'field "stall_s"'],
  [{ kind: 'advisers', writer: 'kimi-k3' }, 'field "advisers"'],
  [{ kind: 'advisers', writer: 'kimi-k3', advisers: [] }, 'field "advisers"'],
  [{ kind: 'advisers', writer: 'kimi-k3', advisers: Array(9).fill('glm-5.2') }, 'field "advisers"'],
  [{ kind: 'advisers', writer: 'kimi-k3', advisers: ['glm-5.2', 'llama'] }, 'field "advisers[1]"'],
  [{ kind: 'advisers', writer: 'kimi-k3', advisers: ['glm-5.2'], max_tokens: 8193 }, 'field "max_tokens"'],
  [{ kind: 'advisers', writer: 'kimi-k3', advisers: ['glm-5.2'], max_tokens: 100.5 }, 'field "max_tokens"'],
  [{ kind: 'advisers', writer: 'kimi-k3', advisers: ['glm-5.2'], temperature: 2.5 }, 'field "temperature"'],
  [{ kind: 'advisers', writer: 'kimi-k3', advisers: ['glm-5.2'], every: 0 }, 'field "every"'],
  [{ kind: 'advisers', writer: 'kimi-k3', advisers: ['glm-5.2'], stall_s: 5 }, 'field "stall_s"'],
];

test('valid documents pass with the live defaults filled in', () => {
  for (const document of valid) assert.ok(checkPolicyJson(document).ok, JSON.stringify(document));
  const escalate = checkPolicyJson({ kind: 'escalate', cheap: 'qwen3.6-35b-a3b', strong: 'glm-5.3' });
  assert.deepEqual(escalate.ok && escalate.value, {
    kind: 'escalate',
    cheap: 'qwen3.6-35b-a3b',
    strong: 'glm-5.3',
    signals: ['stall', 'toolerr', 'repeat'],
    stall_s: 420,
  });
  const advisers = checkPolicyJson({ kind: 'advisers', writer: 'kimi-k3', advisers: ['glm-5.2'] });
  assert.deepEqual(advisers.ok && advisers.value, {
    kind: 'advisers',
    writer: 'kimi-k3',
    advisers: ['glm-5.2'],
    max_tokens: 400,
    temperature: 0.7,
    every: 1,
  });
});

test('each invalid document gets one line naming the field and the rule', () => {
  for (const [document, field] of invalid) {
    const check = checkPolicyJson(document);
    assert.equal(check.ok, false, JSON.stringify(document));
    if (check.ok) continue;
    assert.ok(check.message.startsWith(`policy.json: ${field} `), `${JSON.stringify(document)} → ${check.message}`);
    assert.ok(!check.message.includes('\n'));
  }
  const broken = parsePolicyJson('{"kind": "pin",');
  assert.equal(broken.ok, false);
  assert.match(!broken.ok ? broken.message : '', /^policy\.json: the document is not valid JSON/);
});

test('number and encoding errors are named plainly: 1e400 out of range, a BOM as a byte-order mark (issue 36)', () => {
  const huge = parsePolicyJson('{"kind":"advisers","writer":"kimi-k3","advisers":["glm-5.2"],"max_tokens":1e400}');
  assert.equal(huge.ok, false);
  const hugeMessage = !huge.ok ? huge.message : '';
  assert.match(hugeMessage, /^policy\.json: field "max_tokens" .*\(got a number out of range \(1e400 and the like/);
  assert.doesNotMatch(hugeMessage, /null/);
  const bom = parsePolicyJson('\ufeff{"kind":"pin","model":"glm-5.3"}');
  assert.equal(bom.ok, false);
  assert.equal(
    !bom.ok ? bom.message : '',
    'policy.json: the document starts with a byte-order mark (BOM, U+FEFF, bytes EF BB BF); save it as UTF-8 without a BOM',
  );
  assert.ok(!(!bom.ok && bom.message.includes('\ufeff')), 'the mark itself is not quoted');
});

test("the example packs' policy.json files are valid", () => {
  for (const name of readdirSync(examplesRoot)) {
    const file = path.join(examplesRoot, name, 'policy.json');
    if (!existsSync(file)) continue;
    const document = JSON.parse(readFileSync(file, 'utf8'));
    if (!('kind' in document)) continue; // a policy.ts pack's manifest, not a data policy
    const check = checkPolicyJson(document);
    assert.ok(check.ok, `${name}: ${check.ok ? '' : check.message}`);
  }
});

const python = findPython() ?? 'python3-with-aiohttp-not-found';
test("the sidecar's Python check agrees: same verdicts, same defaults, same message", () => {
  const documents = [...valid, ...invalid.map(([document]) => document)];
  const texts = [
    '{"kind":"advisers","writer":"kimi-k3","advisers":["glm-5.2"],"max_tokens":1e400}',
    '\ufeff{"kind":"pin"}',
  ];
  const script = [
    'import json, sys',
    'from trajrl_policy.policy_json import PolicyJsonError, parse_policy_json, validate_policy_json',
    'out = []',
    'given = json.load(sys.stdin)',
    'for text in given["texts"]:',
    '    try:',
    '        out.append({"ok": True, "value": parse_policy_json(text)})',
    '    except PolicyJsonError as error:',
    '        out.append({"ok": False, "message": str(error)})',
    'for document in given["documents"]:',
    '    try:',
    '        out.append({"ok": True, "value": validate_policy_json(document)})',
    '    except PolicyJsonError as error:',
    '        out.append({"ok": False, "message": str(error)})',
    'print(json.dumps(out))',
  ].join('\n');
  const run = spawnSync(python!, ['-c', script], {
    input: JSON.stringify({ texts, documents }),
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, PYTHONPATH: pythonRoot, PYTHONDONTWRITEBYTECODE: '1' },
  });
  assert.equal(run.status, 0, run.stderr);
  const verdicts = JSON.parse(run.stdout) as { ok: boolean; value?: unknown; message?: string }[];
  texts.forEach((text, index) => {
    const fromZod = parsePolicyJson(text);
    assert.equal(verdicts[index]!.ok, false);
    assert.equal(verdicts[index]!.message, fromZod.ok ? '' : fromZod.message, text);
  });
  verdicts.splice(0, texts.length);
  documents.forEach((document, index) => {
    const fromZod = checkPolicyJson(document);
    const fromPython = verdicts[index]!;
    assert.equal(fromPython.ok, fromZod.ok, JSON.stringify(document));
    if (fromZod.ok) assert.deepEqual(fromPython.value, fromZod.value);
    else assert.equal(fromPython.message, fromZod.message);
  });
});

test("policy.json's models are the frozen catalog's eight (one list, kept in step by this test)", async () => {
  const { loadPriceTable, modelNames } = await import('../gateway/catalog/price-table.ts');
  const { priceTableFile } = await import('../common/data-layout.ts');
  assert.deepEqual([...fusionModels].sort(), modelNames(loadPriceTable(priceTableFile)).sort());
});
