// The scenario registry: which folders of scenarios/ form the active set, under a spec number.
// Scenarios are added and retired by editing scenarios/registry.json, not code.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ScenarioError } from './scenario-error.ts';

export const registryFileName = 'registry.json';

const registrySchema = z
  .object({
    spec: z.number().int().positive(),
    active: z
      .array(z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'scenario names are kebab-case folder names'))
      .min(1)
      .refine((names) => new Set(names).size === names.length, 'active names must be unique'),
  })
  .passthrough();
export type ScenarioRegistry = z.infer<typeof registrySchema>;

/** The registry of a scenarios directory, or undefined when it has none (then every folder is active). */
export async function readRegistry(dir: string): Promise<ScenarioRegistry | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(dir, registryFileName), 'utf8');
  } catch {
    return undefined;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(registryFileName, `not JSON: ${(error as Error).message}`);
  }
  const parsed = registrySchema.safeParse(raw);
  if (!parsed.success) {
    throw new ScenarioError(
      registryFileName,
      parsed.error.issues.map((i) => `field "${i.path.join('.')}": ${i.message}`).join('; '),
    );
  }
  return parsed.data;
}
