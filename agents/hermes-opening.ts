// How Hermes opens a conversation: its system prompt and the tools it offers (captured from a real
// run by agents/capture-hermes-opening.ts). The pre-evaluation probe starts every conversation with
// them, the date line set to today, so a policy cannot tell the probe from Hermes by the opening.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const hermesOpeningFile = path.join(import.meta.dirname, 'hermes-opening.json');

const openingSchema = z.object({
  hermesVersion: z.string(),
  system: z.string().min(1),
  tools: z
    .array(
      z.object({ type: z.literal('function'), function: z.object({ name: z.string() }).passthrough() }).passthrough(),
    )
    .min(1),
});
export type HermesOpening = z.infer<typeof openingSchema>;

let cached: HermesOpening | undefined;
let cachedHash: string | undefined;

export function hermesOpening(now = new Date()): HermesOpening {
  cached ??= openingSchema.parse(JSON.parse(readFileSync(hermesOpeningFile, 'utf8')));
  const today = now.toLocaleDateString('en-US', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: '2-digit',
    timeZone: 'UTC',
  });
  return { ...cached, system: cached.system.replace(/^Conversation started: .*$/m, `Conversation started: ${today}`) };
}

/** sha256 of the captured opening (the file, its date line as captured): what the probe's cached verdicts depend on. */
export function hermesOpeningHash(): string {
  cachedHash ??= createHash('sha256').update(readFileSync(hermesOpeningFile)).digest('hex');
  return cachedHash;
}
