import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { bundlePack, maxBundleBytes } from './bundle-pack.ts';
import { examplesDir } from '../policy/testing/bundle-to-file.ts';
import { readPackDirectory } from './read-pack.ts';
import { PackError } from './pack-error.ts';
import { packKindOf } from './pack-format.ts';
import { sha256Hex, type CanonicalPack } from './canonical-pack.ts';

const pack = (files: Record<string, string>): CanonicalPack => ({
  schema_version: 1,
  files: { 'SKILL.md': '# p\n', ...files },
});
const policyUsing = (importLine: string, use: string) =>
  `${importLine}\nimport { definePolicy } from 'trl-policy-sdk';\nexport default definePolicy({ async complete(request, ctx) { ${use}; return ctx.call('glm-5.2', request); } });\n`;

async function refused(files: Record<string, string>, ...patterns: RegExp[]): Promise<void> {
  await assert.rejects(bundlePack(pack(files)), (error: unknown) => {
    assert.ok(error instanceof PackError, String(error));
    assert.equal(error.code, 'pack_invalid');
    for (const pattern of patterns) assert.match(error.message, pattern);
    return true;
  });
}

test('every TypeScript example pack bundles to one ESM module whose default export is the policy', async () => {
  const names = (await readdir(examplesDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const packs = await Promise.all(
    names.map(async (name) => ({ name, pack: await readPackDirectory(path.join(examplesDir, name)) })),
  );
  const typeScript = packs.filter(({ pack }) => packKindOf(pack) === 'typescript');
  assert.ok(typeScript.length >= 6, typeScript.map((p) => p.name).join(','));
  for (const { name, pack } of typeScript) {
    const bundle = await bundlePack(pack);
    assert.equal(bundle.sha256, sha256Hex(bundle.code));
    assert.equal(bundle.sizeBytes, Buffer.byteLength(bundle.code));
    assert.match(bundle.code, /export \{\s*\w+ as default\s*\};/, name);
    assert.doesNotMatch(bundle.code, /\bfrom ['"]|\brequire\(/, `${name} has no imports left`);
    assert.doesNotMatch(
      bundle.code,
      /\/work\/|node_modules/,
      `${name} does not depend on where the validator is checked out`,
    );
    const module = await import(`data:text/javascript;base64,${Buffer.from(bundle.code).toString('base64')}`);
    assert.equal(typeof module.default.complete, 'function', name);
  }
});

test('bundling is deterministic', async () => {
  const example = await readPackDirectory(path.join(examplesDir, 'cost-cascade'));
  assert.equal((await bundlePack(example)).sha256, (await bundlePack(example)).sha256);
});

test('a pack of several files bundles, with TypeScript-style .js specifiers, index files and JSON', async () => {
  const bundle = await bundlePack(
    pack({
      'policy.ts':
        "import { definePolicy } from 'trl-policy-sdk';\nimport { pickModel } from './lib/route.js';\nimport table from './data/models.json';\nexport default definePolicy({ async complete(request, ctx) { return ctx.call(pickModel(table), request); } });\n",
      'lib/route.ts':
        "import { first } from '../util';\nexport function pickModel(table: { models: string[] }): string { return first(table.models); }\n",
      'util/index.ts': 'export const first = (list: string[]): string => list[0] ?? "glm-5.2";\n',
      'data/models.json': '{"models":["glm-5.3-flash"]}',
      'README.md': '# not imported',
    }),
  );
  assert.match(bundle.code, /glm-5.3-flash/);
  assert.match(bundle.code, /function pickModel/);
});

test('Node built-ins are refused, naming the file and the import', async () => {
  await refused(
    { 'policy.ts': policyUsing("import fs from 'fs';", 'fs.readFileSync("/etc/passwd")') },
    /policy\.ts:1 imports "fs", a Node built-in/,
  );
  await refused(
    { 'policy.ts': policyUsing("import { spawn } from 'node:child_process';", 'spawn("sh")') },
    /policy\.ts:1 imports "node:child_process"/,
  );
  await refused(
    {
      'policy.ts': policyUsing("import './lib/net.ts';", ''),
      'lib/net.ts': "import http from 'http';\nhttp.get('http://example.com');\n",
    },
    /lib\/net\.ts:1 imports "http"/,
  );
  await refused(
    { 'policy.ts': policyUsing('', "const cp = require('child_process'); cp.exec('id')") },
    /imports "child_process"/,
  );
  await refused(
    { 'policy.ts': policyUsing("import { promises } from 'fs/promises';", 'promises') },
    /imports "fs\/promises", a Node built-in/,
  );
});

test('packages other than the SDK and URL imports are refused', async () => {
  await refused(
    { 'policy.ts': policyUsing("import _ from 'lodash';", '_.noop()') },
    /policy\.ts:1 imports the package "lodash"; the only package a policy may import is "trl-policy-sdk"/,
  );
  await refused(
    { 'policy.ts': policyUsing("import x from 'trl-policy-sdk/extra';", 'x') },
    /the package "trl-policy-sdk\/extra"/,
  );
  await refused(
    { 'policy.ts': policyUsing("import x from 'https://example.com/x.js';", 'x') },
    /URL imports are not allowed/,
  );
});

test('paths escaping the pack and missing files are refused', async () => {
  await refused(
    { 'policy.ts': policyUsing("import secret from '../secret.ts';", 'secret') },
    /policy\.ts:1 imports "\.\.\/secret\.ts", which points outside the pack/,
  );
  await refused(
    { 'policy.ts': policyUsing("import './lib/a.ts';", ''), 'lib/a.ts': "import '../../../etc/passwd';\n" },
    /lib\/a\.ts:1 imports "\.\.\/\.\.\/\.\.\/etc\/passwd", which points outside the pack/,
  );
  await refused({ 'policy.ts': policyUsing("import x from '/etc/passwd';", 'x') }, /absolute path outside the pack/);
  await refused(
    { 'policy.ts': policyUsing("import { helper } from './helper.ts';", 'helper()') },
    /policy\.ts:1 imports "\.\/helper\.ts", but the pack has no file helper\.ts/,
  );
});

test('syntax errors, a missing entry and a missing default export are clear rejections', async () => {
  await refused({ 'policy.ts': 'export default {\n  complete( {\n' }, /policy\.ts:\d+: /);
  await assert.rejects(bundlePack(pack({ 'other.ts': '' })), /a TypeScript pack needs policy\.ts/);
  await refused(
    { 'policy.ts': 'export const policy = { async complete() {} };\n' },
    /policy\.ts has no default export/,
  );
});

test('an oversized bundle is refused', async () => {
  const chunk = `export const data = ${JSON.stringify('x'.repeat(200 * 1024))};\n`;
  const files: Record<string, string> = { 'policy.ts': '' };
  const imports: string[] = [];
  for (let i = 0; i < 12; i++) {
    files[`data${i}.ts`] = chunk;
    imports.push(`import { data as d${i} } from './data${i}.ts';`);
  }
  files['policy.ts'] =
    `${imports.join('\n')}\nconst all = [${imports.map((_, i) => `d${i}`).join(',')}];\nexport default { async complete(request: unknown, ctx: any) { ctx.log(all.length); return ctx.call('glm-5.2', request); } };\n`;
  await assert.rejects(
    bundlePack(pack(files)),
    (error: unknown) =>
      error instanceof PackError &&
      error.code === 'pack_too_large' &&
      new RegExp(`at most ${maxBundleBytes}`).test(error.message),
  );
});
