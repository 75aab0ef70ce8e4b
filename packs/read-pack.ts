// Turns a pack source (a local directory, or a URL + sha256) into its canonical form.
// Hostile input: sizes are checked before reading, symlinks refused, downloads bounded.
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { byteOrderMarkProblem } from '../common/json-text-problems.ts';
import { packLimits } from './limits.ts';
import { PackError } from './pack-error.ts';
import { safeFetch, type SafeFetchOptions } from './safe-fetch.ts';
import { canonicalJson, canonicalPackSchema, packFromFiles, sha256Hex, type CanonicalPack } from './canonical-pack.ts';

/** Reads a pack from disk: a directory (converted to the JSON form) or a JSON pack file. */
export async function readLocalPack(location: string): Promise<CanonicalPack> {
  const resolved = path.resolve(location);
  const found = await lstat(resolved).catch(() => undefined);
  if (!found) throw new PackError('pack_not_found', `no pack at ${resolved}: nothing is there`);
  if (found.isFile()) {
    if (found.size > packLimits.maxFetchedBytes)
      throw new PackError(
        'pack_too_large',
        `${resolved} is ${found.size} bytes; a pack is at most ${packLimits.maxPackBytes} as canonical JSON`,
      );
    return parsePackJson(await readFile(resolved), resolved);
  }
  return readPackDirectory(resolved);
}

export async function readPackDirectory(dir: string): Promise<CanonicalPack> {
  const root = path.resolve(dir);
  const rootStat = await lstat(root).catch(() => undefined);
  if (!rootStat) throw new PackError('pack_not_found', `no pack at ${root}: the directory does not exist`);
  if (!rootStat.isDirectory())
    throw new PackError(
      'pack_invalid',
      `${root} is not a directory; a pack is a directory with SKILL.md and one of policy.ts, policy.py, policy.json`,
    );

  const files: Record<string, string> = {};
  let count = 0;
  let total = 0;
  async function walk(relative: string): Promise<void> {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    for (const entry of entries) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink())
        throw new PackError('pack_invalid', `${name} is a symbolic link; packs may hold only regular files`);
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules' || entry.name === '__pycache__')
          throw new PackError(
            'pack_invalid',
            `${name}: packs may not carry ${entry.name}; a pack holds its own sources only`,
          );
        await walk(name);
        continue;
      }
      if (!entry.isFile()) throw new PackError('pack_invalid', `${name} is not a regular file`);
      count += 1;
      if (count > packLimits.maxFiles)
        throw new PackError('pack_too_large', `the pack has more than ${packLimits.maxFiles} files`);
      const { size } = await lstat(path.join(root, name));
      total += size;
      if (total > packLimits.maxDirectoryBytes)
        throw new PackError(
          'pack_too_large',
          `the pack holds more than ${packLimits.maxDirectoryBytes} bytes; a pack is at most ${packLimits.maxPackBytes} as canonical JSON`,
        );
      const content = await readFile(path.join(root, name));
      const text = content.toString('utf8');
      if (!Buffer.from(text, 'utf8').equals(content))
        throw new PackError('pack_invalid', `${name} is not UTF-8 text; packs hold text files only`);
      files[name] = text;
    }
  }
  await walk('');
  return packFromFiles(files);
}

/** JSON bytes → a pack in format 1 (any formatting; its identity is the hash of the canonical form). */
export function parsePackJson(bytes: Buffer, source: string): CanonicalPack {
  let parsed: unknown;
  const text = bytes.toString('utf8');
  const bom = byteOrderMarkProblem(text, `the pack at ${source}`);
  if (bom) throw new PackError('pack_invalid', bom);
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new PackError('pack_invalid', `the pack at ${source} is not JSON: ${(error as Error).message}`);
  }
  const checked = canonicalPackSchema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new PackError(
      'pack_invalid',
      `the pack at ${source} is not a format-1 pack {"schema_version": 1, "files": {...}}: field "${issue?.path.join('.') || '(root)'}" ${issue?.message}`,
    );
  }
  return checked.data;
}

/**
 * Downloads a canonical pack through the SSRF-safe fetch (public addresses only, each hop resolved
 * once and pinned, at most 3 redirects, byte cap, deadline) and checks it against the committed
 * sha256. `fetchOptions` lets tests allow their loopback server.
 */
export async function fetchPackFromUrl(
  url: string,
  expectedSha256: string,
  fetchOptions: SafeFetchOptions = {},
): Promise<CanonicalPack> {
  const response = await safeFetch(url, { maxBytes: packLimits.maxFetchedBytes, ...fetchOptions });
  if (response.status === 404 || response.status === 410)
    throw new PackError('pack_not_found', `${url} answered ${response.status}`);
  if (response.status >= 500 || response.status === 429)
    throw new PackError('pack_fetch_failed', `${url} answered ${response.status}`, true);
  if (response.status < 200 || response.status >= 300)
    throw new PackError('pack_not_found', `${url} answered ${response.status}`);
  const bytes = response.body;
  // The commitment names the pack's identity: the sha256 of its canonical JSON, however the bytes
  // at the URL are formatted.
  const pack = parsePackJson(bytes, url);
  const actual = sha256Hex(canonicalJson(pack));
  if (actual !== expectedSha256) {
    throw new PackError(
      'pack_hash_mismatch',
      `the pack at ${url} has sha256 ${actual} (of its canonical JSON), but the submission commits to ${expectedSha256}`,
    );
  }
  return pack;
}
