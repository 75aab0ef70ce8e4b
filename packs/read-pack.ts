// Turns a pack source (a local directory, or a URL + sha256) into its canonical form.
// Hostile input: sizes are checked before reading, symlinks refused, downloads bounded.
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { packLimits } from './limits.ts';
import { PackError } from './pack-error.ts';
import { canonicalJson, canonicalPackSchema, sha256Hex, type CanonicalPack } from './canonical-pack.ts';

export async function readPackDirectory(dir: string): Promise<CanonicalPack> {
  const root = path.resolve(dir);
  const rootStat = await lstat(root).catch(() => undefined);
  if (!rootStat) throw new PackError('pack_not_found', `no pack at ${root}: the directory does not exist`);
  if (!rootStat.isDirectory()) throw new PackError('pack_invalid', `${root} is not a directory; a pack is a directory with policy.json`);

  const files: Record<string, string> = {};
  let manifestText: string | undefined;
  let count = 0;
  let total = 0;
  async function walk(relative: string): Promise<void> {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    for (const entry of entries) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) throw new PackError('pack_invalid', `${name} is a symbolic link; packs may hold only regular files`);
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules') throw new PackError('pack_invalid', `${name}: packs may not carry node_modules; bundle what you need into your sources`);
        await walk(name);
        continue;
      }
      if (!entry.isFile()) throw new PackError('pack_invalid', `${name} is not a regular file`);
      count += 1;
      if (count > packLimits.maxFiles + 1) throw new PackError('pack_too_large', `the pack has more than ${packLimits.maxFiles} files`);
      const { size } = await lstat(path.join(root, name));
      if (size > packLimits.maxFileBytes) throw new PackError('pack_too_large', `${name} is ${size} bytes; a file may hold at most ${packLimits.maxFileBytes}`);
      total += size;
      if (total > packLimits.maxTotalBytes) throw new PackError('pack_too_large', `the pack holds more than ${packLimits.maxTotalBytes} bytes`);
      const content = await readFile(path.join(root, name));
      const text = content.toString('utf8');
      if (!Buffer.from(text, 'utf8').equals(content)) throw new PackError('pack_invalid', `${name} is not UTF-8 text; packs hold source files only`);
      if (name === packLimits.manifestFile) manifestText = text;
      else files[name] = text;
    }
  }
  await walk('');
  if (manifestText === undefined) throw new PackError('pack_invalid', `no ${packLimits.manifestFile} in ${root}; add {"name","version","entry","sdk":1}`);
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestText);
  } catch (error) {
    throw new PackError('pack_invalid', `${packLimits.manifestFile} is not valid JSON: ${(error as Error).message}`);
  }
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) {
    throw new PackError('pack_invalid', `${packLimits.manifestFile} must hold a JSON object`);
  }
  return { schema: 1, manifest: manifest as Record<string, unknown>, files };
}

/** Downloads a canonical pack, bounded in size and time, and checks it against the committed sha256. */
export async function fetchPackFromUrl(url: string, expectedSha256: string, timeoutMs = 30_000): Promise<CanonicalPack> {
  const parsedUrl = new URL(url);
  if (parsedUrl.protocol !== 'https:' && parsedUrl.protocol !== 'http:') {
    throw new PackError('pack_invalid', `pack URL must be http(s), got ${parsedUrl.protocol}`);
  }
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (error) {
    throw new PackError('pack_fetch_failed', `could not download ${url}: ${(error as Error).message}`, true);
  }
  if (response.status === 404 || response.status === 410) throw new PackError('pack_not_found', `${url} answered ${response.status}`);
  if (response.status >= 500 || response.status === 429) throw new PackError('pack_fetch_failed', `${url} answered ${response.status}`, true);
  if (!response.ok) throw new PackError('pack_not_found', `${url} answered ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > packLimits.maxCanonicalBytes) throw new PackError('pack_too_large', `${url} is ${declared} bytes; at most ${packLimits.maxCanonicalBytes}`);
  const chunks: Buffer[] = [];
  let received = 0;
  const reader = response.body?.getReader();
  if (!reader) throw new PackError('pack_fetch_failed', `${url} sent no body`, true);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > packLimits.maxCanonicalBytes) {
      await reader.cancel();
      throw new PackError('pack_too_large', `${url} sent more than ${packLimits.maxCanonicalBytes} bytes`);
    }
    chunks.push(Buffer.from(value));
  }
  const bytes = Buffer.concat(chunks);
  const actual = sha256Hex(bytes);
  if (actual !== expectedSha256) {
    throw new PackError('pack_hash_mismatch', `${url} has sha256 ${actual}, but the submission commits to ${expectedSha256}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new PackError('pack_invalid', `the pack at ${url} is not JSON: ${(error as Error).message}`);
  }
  const checked = canonicalPackSchema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new PackError('pack_invalid', `the pack at ${url} is not a canonical pack: field "${issue?.path.join('.')}" ${issue?.message}`);
  }
  if (canonicalJson(checked.data) !== bytes.toString('utf8')) {
    throw new PackError('pack_invalid', `the pack at ${url} is not in canonical form (sorted keys, no whitespace); serialise it with \`trl pack\``);
  }
  return checked.data;
}
