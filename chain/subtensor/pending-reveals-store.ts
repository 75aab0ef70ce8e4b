// Weight commits waiting for their reveal, kept on disk: a validator that restarts between
// commit and reveal must still reveal, or the commit is lost and its weights never count.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../common/atomic-write.ts';
import { z } from 'zod';

const u16 = z.number().int().min(0).max(65535);

export const pendingRevealSchema = z.object({
  netuid: u16,
  hotkey: z.string().min(1),
  uids: z.array(u16),
  values: z.array(u16),
  salt: z.array(u16),
  versionKey: z.number().int().nonnegative(),
  commitHash: z.string().regex(/^0x[0-9a-f]{64}$/),
  commitBlock: z.number().int().nonnegative(),
  commitEpoch: z.number().int().nonnegative(),
  revealEpoch: z.number().int().nonnegative(),
  revealFromBlock: z.number().int().nonnegative(),
  revealUntilBlock: z.number().int().nonnegative(),
  /** 'counter' = SubnetEpochIndex storage (spec 424); 'tempo' = the block formula (older runtimes). */
  epochSource: z.enum(['counter', 'tempo']),
  transaction: z.string(),
});
export type PendingReveal = z.infer<typeof pendingRevealSchema>;

const fileSchema = z.object({ version: z.literal(1), reveals: z.array(pendingRevealSchema) });

export async function loadPendingReveals(path: string): Promise<PendingReveal[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed = fileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new Error(
      `pending reveals file ${path} does not match the expected shape (${parsed.error.issues[0]?.message ?? 'invalid'}); move it aside to start empty`,
    );
  }
  return parsed.data.reveals;
}

export async function savePendingReveals(path: string, reveals: PendingReveal[]): Promise<void> {
  // Salts are secrets until the reveal: readable by this user only.
  await writeFileAtomic(path, `${JSON.stringify({ version: 1, reveals }, null, 2)}\n`, { mode: 0o600 });
}
