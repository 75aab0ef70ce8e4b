// Builds commands of a Go module fetched from the Go module proxy: its source is downloaded by
// `go mod download`, copied out of the read-only module cache and built inside it, so the module's
// own go.mod (replace directives included, which `go install` refuses) is the main module.
import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { runCommand } from '../common/run-command.ts';

const downloadSchema = z.object({ Dir: z.string().min(1).optional(), Error: z.string().optional() });

/** Downloads `module@version` and returns its source folder in the module cache. */
export async function downloadGoModule(module: string, version: string): Promise<string> {
  const result = await runCommand('go', ['mod', 'download', '-json', `${module}@${version}`], {
    env: { ...process.env, GOTOOLCHAIN: 'local' },
  });
  const parsed = downloadSchema.parse(JSON.parse(result.stdout));
  if (!parsed.Dir) throw new Error(`go mod download ${module}@${version}: ${parsed.Error ?? 'no source folder'}`);
  return parsed.Dir;
}

/**
 * Builds each `./cmd/...` package of the module into `outDir` (binary named by `targets`), in a
 * scratch copy of its source under `outDir/src`, removed afterwards; `keep` copies folders of
 * the source (schema files, configs) into `outDir` first.
 */
export async function buildGoModule(options: {
  module: string;
  version: string;
  outDir: string;
  targets: Record<string, string>;
  keep?: string[];
}): Promise<void> {
  const source = await downloadGoModule(options.module, options.version);
  const scratch = path.join(options.outDir, 'src');
  await rm(scratch, { recursive: true, force: true });
  await mkdir(options.outDir, { recursive: true });
  await cp(source, scratch, { recursive: true });
  await runCommand('chmod', ['-R', 'u+w', scratch]);
  try {
    for (const folder of options.keep ?? [])
      await cp(path.join(scratch, folder), path.join(options.outDir, folder), { recursive: true });
    for (const [binary, pkg] of Object.entries(options.targets)) {
      await runCommand('go', ['build', '-o', path.join(options.outDir, binary), pkg], {
        cwd: scratch,
        env: { ...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0' },
      });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
