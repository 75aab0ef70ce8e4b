import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readLocalPack, readPackDirectory, fetchPackFromUrl } from './read-pack.ts';
import { onlyEndpoints } from './address-policy.ts';
import { PackError } from './pack-error.ts';
import { canonicalJson, sha256Hex } from './canonical-pack.ts';

async function packDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-pack-unit-'));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  return dir;
}

const skill = '# p\n\nRead the task first.\n';

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof PackError && error.code === code);
}

test('a directory pack becomes its format-1 JSON form, every file in it', async () => {
  const pack = await readPackDirectory(await packDir({ 'SKILL.md': skill, 'policy.ts': 'x', 'lib/util.ts': 'y' }));
  assert.deepEqual(pack, { schema_version: 1, files: { 'SKILL.md': skill, 'policy.ts': 'x', 'lib/util.ts': 'y' } });
});

test('a JSON pack file is read as it is, whatever its formatting', async () => {
  const dir = await packDir({});
  const file = path.join(dir, 'pack.json');
  await writeFile(
    file,
    JSON.stringify({ files: { 'SKILL.md': skill, 'policy.py': 'print(1)' }, schema_version: 1 }, null, 2),
  );
  assert.deepEqual(await readLocalPack(file), {
    schema_version: 1,
    files: { 'SKILL.md': skill, 'policy.py': 'print(1)' },
  });
  await writeFile(file, JSON.stringify({ schema_version: 2, files: {} }));
  await assert.rejects(readLocalPack(file), /schema_version/);
  await writeFile(file, JSON.stringify({ schema_version: 1, files: { 'a.py': 3 } }));
  await assert.rejects(readLocalPack(file), /files\.a\.py/);
});

test('missing directories, symlinks, node_modules and binary files are refused', async () => {
  await rejectsWith(readPackDirectory('/nonexistent/pack'), 'pack_not_found');
  const withLink = await packDir({ 'SKILL.md': skill });
  await symlink('/etc/passwd', path.join(withLink, 'policy.ts'));
  await rejectsWith(readPackDirectory(withLink), 'pack_invalid');
  await rejectsWith(
    readPackDirectory(await packDir({ 'SKILL.md': skill, 'node_modules/x/index.js': '' })),
    'pack_invalid',
  );
  const binary = await packDir({ 'SKILL.md': skill });
  await writeFile(path.join(binary, 'blob.ts'), Buffer.from([0xff, 0xfe, 0x00]));
  await rejectsWith(readPackDirectory(binary), 'pack_invalid');
});

test('oversized packs are refused before being read whole', async () => {
  await rejectsWith(
    readPackDirectory(await packDir({ 'SKILL.md': skill, 'big.ts': 'x'.repeat(300 * 1024) })),
    'pack_too_large',
  );
  const many: Record<string, string> = { 'SKILL.md': skill };
  for (let i = 0; i < 80; i++) many[`f${i}.ts`] = '';
  await rejectsWith(readPackDirectory(await packDir(many)), 'pack_too_large');
});

test('URL packs: the canonical hash checked whatever the formatting, size bounded, 404 is not found', async () => {
  const pack = { schema_version: 1, files: { 'SKILL.md': skill, 'policy.ts': 'x' } };
  const json = canonicalJson(pack);
  const routes: Record<string, string> = {
    '/ok': json,
    '/pretty': JSON.stringify(pack, null, 2),
    '/huge': 'x'.repeat(4 * 1024 * 1024),
  };
  const server = http.createServer((req, res) => {
    const body = routes[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  // The test server is on loopback, which the default policy refuses: allow exactly it.
  const local = { allowAddress: onlyEndpoints([{ address: '127.0.0.1', port }]) };
  try {
    assert.deepEqual(await fetchPackFromUrl(`${base}/ok`, sha256Hex(json), local), pack);
    await rejectsWith(fetchPackFromUrl(`${base}/ok`, '0'.repeat(64), local), 'pack_hash_mismatch');
    // The identity is the canonical JSON's hash: pretty bytes commit to the same pack.
    assert.deepEqual(await fetchPackFromUrl(`${base}/pretty`, sha256Hex(json), local), pack);
    await rejectsWith(fetchPackFromUrl(`${base}/pretty`, sha256Hex(routes['/pretty']!), local), 'pack_hash_mismatch');
    await rejectsWith(fetchPackFromUrl(`${base}/huge`, '0'.repeat(64), local), 'pack_too_large');
    await rejectsWith(fetchPackFromUrl(`${base}/missing`, '0'.repeat(64), local), 'pack_not_found');
    await rejectsWith(fetchPackFromUrl('file:///etc/passwd', '0'.repeat(64)), 'pack_invalid');
    // Without the test's allowance, the same loopback URL is refused before any connection.
    await rejectsWith(fetchPackFromUrl(`${base}/ok`, sha256Hex(json)), 'pack_url_refused');
  } finally {
    server.close();
  }
});
