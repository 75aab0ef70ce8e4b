// The sim fleet as a bench's upstream: in its own process (as the upstream is in production, so its
// tokenizer's CPU is not the bench's event loop), with the profiles' injected faults off.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { modelCatalogFile, repoRoot } from '../common/data-layout.ts';
import { startUpstreamProcess, type UpstreamProcess } from './upstream-process.ts';

// Faults off: a retried 429 would measure the back-off, not the hop.
export async function writeFaultFreeCatalog(file: string): Promise<void> {
  const catalog = JSON.parse(await readFile(modelCatalogFile, 'utf8')) as {
    models: { sim: Record<string, unknown> }[];
  };
  for (const entry of catalog.models) Object.assign(entry.sim, { rateLimitRate: 0, serverErrorRate: 0 });
  await writeFile(file, JSON.stringify(catalog));
}

/** The sim fleet in its own process, as the upstream is in production: its tokenizer's CPU is not the bench's event
 * loop. */
export function startSimFleetProcess(modelsFile: string): Promise<UpstreamProcess> {
  return startUpstreamProcess(['--import', 'tsx', path.join(repoRoot, 'simfleet', 'main.ts'), '--time-scale', '0'], {
    ...process.env,
    TRL_MODELS_FILE: modelsFile,
  });
}
