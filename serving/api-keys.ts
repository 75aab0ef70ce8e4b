// `trl serve`'s API keys: the file keeps each key's sha256 (never the key), its label and limits.
// A key is shown once, when it is made. The file is read at start and on every change made here.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../common/atomic-write.ts';
import { ConfigError } from '../common/config-error.ts';

const apiKeySchema = z.strictObject({
  id: z.string().regex(/^k[0-9a-f]{8}$/),
  label: z.string().min(1).max(100),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.string(),
  /** Total spend the key may cause, in USD, over its whole call log. */
  spendLimitUsd: z.number().positive().optional(),
  /** Chat requests per minute. */
  requestsPerMinute: z.number().int().positive().optional(),
  revoked: z.boolean().optional(),
});
const keysFileSchema = z.strictObject({ keys: z.array(apiKeySchema) });

export type ApiKey = z.infer<typeof apiKeySchema>;

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export async function readApiKeys(file: string): Promise<ApiKey[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed = keysFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new ConfigError(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data.keys;
}

/** Makes a key, stores its hash and returns the key itself (shown to the operator once). */
export async function addApiKey(
  file: string,
  request: { label: string; spendLimitUsd?: number; requestsPerMinute?: number },
): Promise<{ key: ApiKey; secret: string }> {
  const keys = await readApiKeys(file);
  const secret = `trl-sk-${randomBytes(24).toString('base64url')}`;
  const key: ApiKey = apiKeySchema.parse({
    id: `k${randomBytes(4).toString('hex')}`,
    label: request.label,
    sha256: hashKey(secret),
    createdAt: new Date().toISOString(),
    ...(request.spendLimitUsd !== undefined ? { spendLimitUsd: request.spendLimitUsd } : {}),
    ...(request.requestsPerMinute !== undefined ? { requestsPerMinute: request.requestsPerMinute } : {}),
  });
  await writeFileAtomic(file, JSON.stringify({ keys: [...keys, key] }, null, 2) + '\n', { mode: 0o600 });
  return { key, secret };
}

export async function revokeApiKey(file: string, id: string): Promise<boolean> {
  const keys = await readApiKeys(file);
  const found = keys.find((key) => key.id === id);
  if (!found) return false;
  found.revoked = true;
  await writeFileAtomic(file, JSON.stringify({ keys }, null, 2) + '\n', { mode: 0o600 });
  return true;
}
