// The model allowlist: context windows, tool support and sim profiles from gateway/catalog/models.json
// (zod-checked), prices from the spec's frozen price table (season-2-catalog.json, the one owner of
// prices and of the per-scenario cap). TRL_MODELS_FILE points at an operator's own models file,
// whose entries may carry their own `prices`; whatever is charged is hashed, and any table other
// than the spec's makes the results unofficial.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { modelCatalogFile, priceTableFile } from '../../common/data-layout.ts';
import { loadPriceTable, modelPricesSchema, priceTableHash, type PriceTable } from './price-table.ts';
import type { ModelPrices } from '../meter/episode-meter.ts';
import { readSetting } from '../../common/settings/setting.ts';
import { moneySettings } from '../../common/settings/money-settings.ts';

const probability = z.number().min(0).max(1);

export const simProfileSchema = z.object({
  /** Time to first token. */
  latencyMs: z.number().nonnegative(),
  tokensPerSecond: z.number().positive(),
  competence: z.object({
    /** Chance of solving an easy task of an average category. */
    base: probability,
    byDifficulty: z.object({
      easy: z.number().nonnegative(),
      medium: z.number().nonnegative(),
      hard: z.number().nonnegative(),
    }),
    /** Multipliers for categories this model is better or worse at; missing means 1. */
    byCategory: z.record(z.string(), z.number().nonnegative()).default({}),
  }),
  rateLimitRate: probability,
  serverErrorRate: probability,
  /** A drifting upstream (simfleet/model-drift.ts): competence falls with the calls the fleet has answered for this
   * model. */
  drift: z
    .object({
      /** Share of the competence lost per call answered before this one. */
      competenceLossPerCall: z.number().min(0).max(1),
      /** The competence never falls below this share of the profile's. */
      floor: probability.default(0),
    })
    .optional(),
});
export type SimProfile = z.infer<typeof simProfileSchema>;

/** One model as the models file describes it; `prices` only in an operator's own file. */
export const modelFileEntrySchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'model ids are lowercase letters, digits, dot, dash, underscore'),
  prices: modelPricesSchema.optional(),
  contextWindow: z.number().int().positive(),
  maxOutputTokens: z.number().int().positive(),
  supportsTools: z.boolean(),
  sim: simProfileSchema,
});

export const modelsFileSchema = z.object({
  $comment: z.string().optional(),
  version: z.literal(1),
  models: z
    .array(modelFileEntrySchema)
    .min(1)
    .refine((models) => new Set(models.map((m) => m.id)).size === models.length, 'model ids must be unique'),
});

/** Prices in USD per million tokens, as the meter charges them. */
export interface ModelPricing {
  inputUsdPerMillion: number;
  cachedInputUsdPerMillion: number;
  outputUsdPerMillion: number;
}

export interface ModelEntry {
  id: string;
  pricing: ModelPricing;
  contextWindow: number;
  maxOutputTokens: number;
  supportsTools: boolean;
  sim: SimProfile;
}

export interface Allowlist {
  version: 1;
  models: ModelEntry[];
}

export const defaultAllowlistFile = modelCatalogFile;

/** The spec's frozen price table: what an official result is charged by. */
export function loadSpecPriceTable(): PriceTable {
  return loadPriceTable(priceTableFile);
}

export function parseAllowlist(
  text: string,
  source = 'models file',
  specTable: PriceTable = loadSpecPriceTable(),
): Allowlist {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`);
  }
  const parsed = modelsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `field "${issue.path.join('.')}": ${issue.message}`);
    throw new Error(`${source}: ${problems.join('; ')}`);
  }
  const models = parsed.data.models.map((entry, index): ModelEntry => {
    const prices = entry.prices ?? (Object.hasOwn(specTable.models, entry.id) ? specTable.models[entry.id] : undefined);
    if (!prices) {
      throw new Error(
        `${source}: field "models.${index}.prices": ${entry.id} is not in the ${specTable.scenario_spec} price table; give it prices (prompt_usd_per_million_tokens, completion_usd_per_million_tokens, cache_read_usd_per_million_tokens)`,
      );
    }
    const { prices: _prices, ...rest } = entry;
    return {
      ...rest,
      pricing: {
        inputUsdPerMillion: prices.prompt_usd_per_million_tokens,
        cachedInputUsdPerMillion: prices.cache_read_usd_per_million_tokens,
        outputUsdPerMillion: prices.completion_usd_per_million_tokens,
      },
    };
  });
  return { version: 1, models };
}

export function loadAllowlist(file = readSetting(moneySettings, 'TRL_MODELS_FILE') ?? defaultAllowlistFile): Allowlist {
  return parseAllowlist(readFileSync(file, 'utf8'), file);
}

/** A model's prices in the meter's shape. */
export function meterPrices(model: ModelEntry): ModelPrices {
  return {
    promptUsdPerMillionTokens: model.pricing.inputUsdPerMillion,
    completionUsdPerMillionTokens: model.pricing.outputUsdPerMillion,
    cacheReadUsdPerMillionTokens: model.pricing.cachedInputUsdPerMillion,
  };
}

/** The price table a gateway with this allowlist and cap actually charges by. */
export function chargedPriceTable(
  allowlist: Allowlist,
  capUsd: number,
  specTable: PriceTable = loadSpecPriceTable(),
): PriceTable {
  const models: PriceTable['models'] = {};
  for (const model of allowlist.models) {
    models[model.id] = {
      prompt_usd_per_million_tokens: model.pricing.inputUsdPerMillion,
      completion_usd_per_million_tokens: model.pricing.outputUsdPerMillion,
      cache_read_usd_per_million_tokens: model.pricing.cachedInputUsdPerMillion,
    };
  }
  return { scenario_spec: specTable.scenario_spec, cap_usd: capUsd, models };
}

export interface PricingIdentity {
  /** sha256 of the charged table (spec name, cap, every model's prices); see price-table.ts. */
  priceTableHash: string;
  /** The charged table is the spec's frozen table, cap included: the result may be compared across validators. */
  official: boolean;
}

export function pricingIdentity(
  allowlist: Allowlist,
  capUsd: number,
  specTable: PriceTable = loadSpecPriceTable(),
): PricingIdentity {
  const hash = priceTableHash(chargedPriceTable(allowlist, capUsd, specTable));
  return { priceTableHash: hash, official: hash === priceTableHash(specTable) };
}
