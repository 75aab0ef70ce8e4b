import { z } from 'zod';

const absolutePath = z
  .string()
  .regex(/^\/[^\0]*$/, 'must be an absolute path')
  .refine((p) => !p.split('/').includes('..'), 'must not contain ".."');

/** "4G", "512M", "2048" (MB) or a number of MB, as Harbor's deprecated `memory` / `storage` keys take them. */
export function parseSizeMb(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? Math.round(value) : undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$/i.exec(value);
  if (!match) return undefined;
  const factor = { '': 1, k: 1 / 1024, m: 1, g: 1024, t: 1024 * 1024 }[
    match[2]!.toLowerCase() as '' | 'k' | 'm' | 'g' | 't'
  ];
  const megabytes = Math.round(Number(match[1]) * factor);
  return megabytes > 0 ? megabytes : undefined;
}

const sizeMb = z.union([z.string(), z.number()]).transform((value, context) => {
  const megabytes = parseSizeMb(value);
  if (megabytes === undefined) {
    context.addIssue({
      code: 'custom',
      message: `${JSON.stringify(value)} is not a size (like "4G", "512M" or a number of MB)`,
    });
    return z.NEVER;
  }
  return megabytes;
});

/** The longest agent run and verifier run the validator grants a task; a task.toml asking for more gets these. */
export const maxTimeoutSec = { agent: 7200, verifier: 3600 } as const;

/** Environment variables of a table: TOML values of any scalar kind, passed on as strings. */
const envTable = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'),
    z.union([z.string(), z.number(), z.boolean()]).transform(String),
  )
  .default({});

/** An OS user as Harbor's `user` keys name it: a name or a numeric uid. */
const osUser = z.union([
  z.string().regex(/^[a-z_][a-z0-9_-]*\$?$|^\d+$/i, 'must be a user name or uid'),
  z.number().int().nonnegative().transform(String),
]);

/**
 * task.toml of a scenario: Harbor / Terminal-Bench 2's keys with Harbor's defaults for every
 * optional one, plus our own optional `agent_outputs` and `[agent] max_turns`. Unknown keys are
 * ignored, as Harbor ignores them.
 */
export const taskConfigSchema = z
  .object({
    version: z.string().default('1.0'),
    /** Declared: only these paths reach the verifier. Absent: the verifier starts from a snapshot of the agent's
     * container. */
    agent_outputs: z
      .array(absolutePath)
      .min(1, 'declare at least one agent output path, or leave agent_outputs out to verify from a snapshot')
      .optional(),
    metadata: z
      .object({
        category: z.string().optional(),
        difficulty: z.string().optional(),
        tags: z.array(z.string()).default([]),
        author: z.string().optional(),
      })
      .passthrough()
      .prefault({}),
    agent: z
      .object({
        // Longer asks are lowered to the most the validator grants, and noted (catalog/load-scenario.ts).
        timeout_sec: z
          .number()
          .positive()
          .default(600)
          .transform((seconds) => Math.min(seconds, maxTimeoutSec.agent)),
        /** Most model turns the agent may take; enforced outside the agent by the policy host. */
        max_turns: z.number().int().positive().max(500).default(40),
        /** The OS user the agent runs as; default the image's USER, or `agent` when that is root. */
        user: osUser.optional(),
        env: envTable,
      })
      .prefault({}),
    verifier: z
      .object({
        timeout_sec: z
          .number()
          .positive()
          .default(600)
          .transform((seconds) => Math.min(seconds, maxTimeoutSec.verifier)),
        /** The OS user test.sh runs as; default root. */
        user: osUser.optional(),
        env: envTable,
      })
      .prefault({}),
    solution: z.object({ env: envTable }).prefault({}),
    environment: z
      .object({
        cpus: z.number().positive().max(16).default(1),
        memory_mb: z.number().int().min(64).max(32768).optional(),
        /** Harbor's deprecated spelling of memory_mb ("4G"). */
        memory: sizeMb.optional(),
        storage_mb: z.number().int().positive().optional(),
        storage: sizeMb.optional(),
        /** Harbor's default is true; the validator never grants internet and notes that in the result. */
        allow_internet: z.boolean().default(true),
        /** The agent's working directory; default the image's WORKDIR, else /app. */
        workdir: absolutePath.optional(),
        env: envTable,
      })
      .prefault({}),
  })
  .transform((config) => {
    const { memory, storage, ...environment } = config.environment;
    return {
      ...config,
      environment: {
        ...environment,
        memory_mb: Math.min(32768, Math.max(64, environment.memory_mb ?? memory ?? 2048)),
        storage_mb: environment.storage_mb ?? storage,
      },
    };
  });
export type TaskConfig = z.infer<typeof taskConfigSchema>;

/** How a value left out of task.toml is shown (category, difficulty). */
export const notDeclared = '—';
