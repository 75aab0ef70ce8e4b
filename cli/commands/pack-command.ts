// `trl pack <dir>`: the canonical JSON form of a pack and its hash, as committed on chain.
import { writeFile } from 'node:fs/promises';
import { readPackDirectory } from '../../packs/read-pack.ts';
import { canonicalJson, packHash } from '../../packs/canonical-pack.ts';
import { checkPackStructure } from '../../packs/manifest.ts';

export async function packCommand(options: { dir: string; out?: string }): Promise<number> {
  const pack = await readPackDirectory(options.dir);
  const problems = checkPackStructure(pack);
  for (const problem of problems) process.stderr.write(`trl: [${problem.code}] ${problem.message}\n`);
  const json = canonicalJson(pack);
  if (options.out) await writeFile(options.out, json);
  process.stdout.write(`${packHash(pack)}${options.out ? `  ${options.out}` : ''}\n`);
  return problems.length === 0 ? 0 : 2;
}
