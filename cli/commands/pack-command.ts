// `trl pack <dir|file.json>`: the canonical JSON form of a pack (format 1) and its hash, as committed on chain.
import { writeFile } from 'node:fs/promises';
import { readLocalPack } from '../../packs/read-pack.ts';
import { canonicalJson, packHash } from '../../packs/canonical-pack.ts';
import { checkPackFormat } from '../../packs/pack-format.ts';

export async function packCommand(options: { dir: string; out?: string }): Promise<number> {
  const pack = await readLocalPack(options.dir);
  const problems = checkPackFormat(pack);
  for (const problem of problems) process.stderr.write(`trl: [${problem.code}] ${problem.message}\n`);
  const json = canonicalJson(pack);
  if (options.out) await writeFile(options.out, json);
  process.stdout.write(`${packHash(pack)}${options.out ? `  ${options.out}` : ''}\n`);
  return problems.length === 0 ? 0 : 2;
}
