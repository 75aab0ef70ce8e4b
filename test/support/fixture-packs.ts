// Policy packs written to temporary folders for tests.
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export async function writePack(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-pack-'));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  return dir;
}

export const validSkill = '# test-policy\n\nRead the task, then check your work.\n';

export function validPackFiles(): Record<string, string> {
  return {
    'SKILL.md': validSkill,
    'policy.ts':
      "export default { async complete(request: unknown, ctx: any) { return ctx.call('glm-5.2', request); } };\n",
  };
}

export const examplePackDir = path.resolve(
  import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname),
  '../../policy/examples/single-model',
);
