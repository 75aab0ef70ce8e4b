// The model allowlist: data in gateway/catalog/models.json, checked with zod. Ids and prices come from the
// file, never from code. TRL_MODELS_FILE points at an operator's own file.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { modelCatalogFile } from '../../common/data-layout.ts';

const probability = z.number().min(0).max(1);

export const simProfileSchema = z.object({
  /** Time to first token. */
  latencyMs: z.number().nonnegative(),
  tokensPerSecond: z.number().positive(),
  competence: z.object({
    /** Chance of solving an easy task of an average category. */
    base: probability,
    byDifficulty: z.object({ easy: z.number().nonnegative(), medium: z.number().nonnegative(), hard: z.number().nonnegative() }),
    /** Multipliers for categories this model is better or worse at; missing means 1. */
    byCategory: z.record(z.string(), z.number().nonnegative()).default({}),
  }),
  rateLimitRate: probability,
  serverErrorRate: probability,
});
export type SimProfile = z.infer<typeof simProfileSchema>;

export const modelEntrySchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'model ids are lowercase letters, digits, dot, dash, underscore'),
  operatorDefault: z.boolean().default(false),
  pricing: z.object({
    inputUsdPerMillion: z.number().nonnegative(),
    cachedInputUsdPerMillion: z.number().nonnegative(),
    outputUsdPerMillion: z.number().positive(),
  }),
  contextWindow: z.number().int().positive(),
  maxOutputTokens: z.number().int().positive(),
  supportsTools: z.boolean(),
  sim: simProfileSchema,
});
export type ModelEntry = z.infer<typeof modelEntrySchema>;

export const allowlistSchema = z.object({
  version: z.literal(1),
  models: z.array(modelEntrySchema).min(1).refine((models) => new Set(models.map((m) => m.id)).size === models.length, 'model ids must be unique'),
});
export type Allowlist = z.infer<typeof allowlistSchema>;

export const defaultAllowlistFile = modelCatalogFile;

export function parseAllowlist(text: string, source = 'models file'): Allowlist {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`);
  }
  const parsed = allowlistSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `field "${issue.path.join('.')}": ${issue.message}`);
    throw new Error(`${source}: ${problems.join('; ')}`);
  }
  return parsed.data;
}

export function loadAllowlist(file = process.env.TRL_MODELS_FILE ?? defaultAllowlistFile): Allowlist {
  return parseAllowlist(readFileSync(file, 'utf8'), file);
}

/** Cost in USD of a call, from token counts and the model's prices. */
export function callCostUsd(model: ModelEntry, usage: { promptTokens: number; cachedPromptTokens?: number; completionTokens: number }): number {
  const cached = Math.min(usage.cachedPromptTokens ?? 0, usage.promptTokens);
  const { pricing } = model;
  return ((usage.promptTokens - cached) * pricing.inputUsdPerMillion + cached * pricing.cachedInputUsdPerMillion + usage.completionTokens * pricing.outputUsdPerMillion) / 1e6;
}
