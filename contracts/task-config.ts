import { z } from 'zod';

const absolutePath = z.string().regex(/^\/[^\0]*$/, 'must be an absolute path').refine((p) => !p.split('/').includes('..'), 'must not contain ".."');

/** task.toml of a scenario (Harbor / Terminal-Bench layout, with our agent_outputs key). */
export const taskConfigSchema = z.object({
  version: z.string().default('1.0'),
  agent_outputs: z.array(absolutePath).min(1, 'declare at least one agent output path'),
  metadata: z.object({
    category: z.string().regex(/^[a-z0-9-]+$/, 'category must be kebab-case'),
    difficulty: z.enum(['easy', 'medium', 'hard']),
    tags: z.array(z.string()).default([]),
    author: z.string().optional(),
  }),
  agent: z.object({
    timeout_sec: z.number().positive().max(7200),
    /** Most model turns the agent may take; enforced outside the agent by the policy host. */
    max_turns: z.number().int().positive().max(500).default(40),
  }),
  verifier: z.object({
    timeout_sec: z.number().positive().max(3600),
  }),
  environment: z.object({
    cpus: z.number().positive().max(16).default(1),
    memory_mb: z.number().int().min(64).max(32768).default(1024),
    storage_mb: z.number().int().positive().optional(),
    allow_internet: z.literal(false, { message: 'allow_internet must be false: scenarios run offline' }).default(false),
  }),
});
export type TaskConfig = z.infer<typeof taskConfigSchema>;
