// The sim fleet as a bench's upstream: in its own process (as the upstream is in production, so its
// tokenizer's CPU is not the bench's event loop), with the profiles' injected faults off.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { modelCatalogFile, repoRoot } from '../common/data-layout.ts';

// Faults off: a retried 429 would measure the back-off, not the hop.
export async function writeFaultFreeCatalog(file: string): Promise<void> {
  const catalog = JSON.parse(await readFile(modelCatalogFile, 'utf8')) as { models: { sim: Record<string, unknown> }[] };
  for (const entry of catalog.models) Object.assign(entry.sim, { rateLimitRate: 0, serverErrorRate: 0 });
  await writeFile(file, JSON.stringify(catalog));
}

/** The sim fleet in its own process, as the upstream is in production: its tokenizer's CPU is not the bench's event loop. */
export async function startSimFleetProcess(modelsFile: string): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'simfleet', 'main.ts'), '--time-scale', '0'], {
    cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TRL_MODELS_FILE: modelsFile },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (bytes: Buffer) => {
      seen += bytes.toString('utf8');
      const found = /listening on (\S+)/.exec(seen);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the sim fleet exited with code ${code}`)));
  });
  return {
    url,
    close: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}
