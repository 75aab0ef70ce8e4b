// Bad packs end the evaluation as `rejected` with their reasons, before any scenario runs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { evaluationWorkflowId, searchAttributes } from '../../contracts/temporal-names.ts';
import { canonicalJson, sha256Hex } from '../../packs/canonical-pack.ts';
import { readPackDirectory } from '../../packs/read-pack.ts';
import { startHarness, uniqueId, type Harness } from '../support/evaluation-harness.ts';
import { validPackFiles, writePack } from '../support/fixture-packs.ts';

describe('pack rejection', () => {
  let harness: Harness;
  let server: http.Server;
  let baseUrl: string;
  const served = new Map<string, string>();

  before(async () => {
    harness = await startHarness();
    server = http.createServer((request, response) => {
      const body = served.get(request.url ?? '');
      if (body === undefined) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Pack fetch refuses every non-public address; the operator's exception lets exactly this server in.
    process.env.TRL_PACK_FETCH_ALLOW = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    delete process.env.TRL_PACK_FETCH_ALLOW;
    server?.close();
    await harness?.close();
  });

  test('a malformed pack is rejected naming the file and the rule, and shows in the search attributes', async () => {
    const { 'SKILL.md': _skill, ...withoutSkill } = validPackFiles();
    const dir = await writePack({ ...withoutSkill, 'policy.json': JSON.stringify({ kind: 'pin', model: 'gpt-4o' }) });
    const submissionId = uniqueId('bad-manifest');
    const result = await harness.evaluate({
      submissionId,
      pack: { kind: 'directory', path: dir },
      scenarios: ['csv-sales-report'],
    });
    assert.equal(result.status, 'rejected');
    assert.deepEqual(result.perScenario, []);
    const messages = (result.rejection ?? []).map((r) => `${r.code}: ${r.message}`).join('\n');
    assert.match(messages, /skill_missing: SKILL\.md is required/);
    assert.match(messages, /entry_ambiguous: the pack has policy\.json and policy\.ts/);
    const description = await harness.client.workflow.getHandle(evaluationWorkflowId(submissionId)).describe();
    assert.equal(description.typedSearchAttributes.get(searchAttributes.status), 'rejected');
  });

  test('a malformed pack of each kind is rejected naming the file and the rule', async () => {
    const skill = validPackFiles()['SKILL.md']!;
    const cases: [Record<string, string>, RegExp][] = [
      [
        {
          'SKILL.md': skill,
          'policy.json': JSON.stringify({
            kind: 'escalate',
            cheap: 'glm-5.3-flash',
            strong: 'gpt-4o',
            signals: ['stall'],
          }),
        },
        /policy_json_invalid: policy\.json: field "strong" must be one of/,
      ],
      [
        { 'SKILL.md': skill, 'policy.py': 'from trajrl_policy import Policy, serve\nclass P(Policy)\n    pass\n' },
        /python_syntax_invalid: policy\.py:2: /,
      ],
      [
        {
          'SKILL.md': skill,
          'policy.ts': "import { definePolicy } from 'trl-policy-sdk';\nexport default definePolicy({ complete( });\n",
        },
        /pack_invalid: .*policy\.ts:2/,
      ],
    ];
    for (const [files, expected] of cases) {
      const result = await harness.evaluate({
        pack: { kind: 'directory', path: await writePack(files) },
        scenarios: ['csv-sales-report'],
      });
      assert.equal(result.status, 'rejected');
      assert.match((result.rejection ?? []).map((r) => `${r.code}: ${r.message}`).join('\n'), expected);
    }
  });

  test('without the exception, a pack URL on this machine is refused as pack_url_refused', async () => {
    const allowed = process.env.TRL_PACK_FETCH_ALLOW;
    delete process.env.TRL_PACK_FETCH_ALLOW;
    try {
      const result = await harness.evaluate({
        pack: { kind: 'url', url: `${baseUrl}/nothing.json`, sha256: 'a'.repeat(64) },
      });
      assert.equal(result.rejection?.[0]?.code, 'pack_url_refused');
    } finally {
      process.env.TRL_PACK_FETCH_ALLOW = allowed;
    }
  });

  test('a missing pack directory is rejected as pack_not_found', async () => {
    const result = await harness.evaluate({ pack: { kind: 'directory', path: '/nonexistent/trl-pack' } });
    assert.equal(result.status, 'rejected');
    assert.equal(result.rejection?.[0]?.code, 'pack_not_found');
  });

  test('an oversized file is rejected as pack_too_large', async () => {
    const dir = await writePack({ ...validPackFiles(), 'huge.ts': `// ${'x'.repeat(40 * 1024)}\n` });
    const result = await harness.evaluate({ pack: { kind: 'directory', path: dir } });
    assert.equal(result.rejection?.[0]?.code, 'pack_too_large');
  });

  test('a URL pack whose bytes do not match the committed sha256 is rejected', async () => {
    const pack = await readPackDirectory(await writePack(validPackFiles()));
    served.set(
      '/tampered.json',
      canonicalJson({ ...pack, files: { ...pack.files, 'policy.ts': '// swapped after commit\n' } }),
    );
    const result = await harness.evaluate({
      pack: { kind: 'url', url: `${baseUrl}/tampered.json`, sha256: sha256Hex(canonicalJson(pack)) },
    });
    assert.equal(result.rejection?.[0]?.code, 'pack_hash_mismatch');
  });

  test('a URL pack that matches its sha256 passes and is evaluated', async () => {
    const pack = await readPackDirectory(await writePack(validPackFiles()));
    const json = canonicalJson(pack);
    served.set('/good.json', json);
    const result = await harness.evaluate({
      pack: { kind: 'url', url: `${baseUrl}/good.json`, sha256: sha256Hex(json) },
      agent: 'null',
      scenarios: ['csv-sales-report'],
    });
    assert.equal(result.status, 'completed');
    assert.equal(result.packHash, sha256Hex(json));
    assert.equal(result.perScenario.length, 1);
  });
});
