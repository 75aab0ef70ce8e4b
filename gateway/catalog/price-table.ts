// The frozen price table of a scenario spec: the model allowlist, each model's prices in USD per
// million tokens, and the episode cap. Every validator must charge from the same table, so the
// table is checked at load and compared across validators by one hash.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { canonicalJson } from './canonical-json.ts';

// One thousandth of a dollar per million tokens is one nano-dollar a token, the meter's unit.
function hasAtMostDecimals(value: number, decimals: number): boolean {
  const scaled = value * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

function priceSchema(what: string, minimumDescription: string, isAllowed: (value: number) => boolean) {
  return z
    .number({
      error: (issue) =>
        issue.input === undefined
          ? `is missing: add the ${what} in USD per million tokens, e.g. 0.045`
          : `must be a number (the ${what} in USD per million tokens, e.g. 0.045), got ${JSON.stringify(issue.input)}`,
    })
    .refine((value) => Number.isFinite(value) && isAllowed(value), { error: `must be ${minimumDescription}` })
    .refine((value) => hasAtMostDecimals(value, 3), {
      error:
        'must have at most three decimals ($0.001 per million tokens is the smallest step the meter charges exactly); round it',
    });
}

export const modelPricesSchema = z.strictObject(
  {
    prompt_usd_per_million_tokens: priceSchema('prompt price', '≥ 0', (value) => value >= 0),
    completion_usd_per_million_tokens: priceSchema(
      'completion price',
      'above 0 (a free completion leaves a reservation unbounded)',
      (value) => value > 0,
    ),
    cache_read_usd_per_million_tokens: priceSchema('cache-read price', '≥ 0', (value) => value >= 0),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'must be an object of three prices' : undefined) },
);

function capSchema(what: string) {
  return z
    .number({
      error: (issue) =>
        issue.input === undefined ? `is missing: add ${what} in USD, e.g. 1` : `must be a number of USD (${what})`,
    })
    .refine((value) => Number.isFinite(value) && value > 0, { error: `must be above 0 (${what})` })
    .refine((value) => hasAtMostDecimals(value, 9), { error: 'must have at most nine decimals (whole nano-dollars)' });
}

export const priceTableSchema = z.strictObject(
  {
    scenario_spec: z
      .string({ error: 'is missing: name the scenario spec this table belongs to, e.g. "season-2"' })
      .min(1, { error: 'must not be empty: name the scenario spec, e.g. "season-2"' }),
    cap_usd: capSchema('the per-scenario cap this validator enforces'),
    live_cap_usd: capSchema('the cap the live season enforces, for reference').optional(),
    note: z.string({ error: 'must be text' }).optional(),
    models: z
      .record(z.string().min(1, { error: 'a model name must not be empty' }), modelPricesSchema, {
        error: 'is missing: add an object mapping each model name to its prices',
      })
      .refine((models) => Object.keys(models).length > 0, { error: 'must list at least one model' }),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'a price table must be a JSON object' : undefined) },
);

export type PriceTable = z.infer<typeof priceTableSchema>;
export type ModelPriceEntry = z.infer<typeof modelPricesSchema>;

export class PriceTableError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`price table ${source} is invalid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'PriceTableError';
  }
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(the table)';
  if (issue.code === 'unrecognized_keys') {
    return `${where}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; remove it or fix the spelling`;
  }
  return `${where}: ${issue.message}`;
}

/** Checks parsed JSON against the schema; every problem is reported at once, each with its field and fix. */
export function parsePriceTable(value: unknown, source = '(inline)'): PriceTable {
  const result = priceTableSchema.safeParse(value);
  if (!result.success) throw new PriceTableError(source, result.error.issues.map(describeIssue));
  return result.data;
}

export function loadPriceTable(filePath: string): PriceTable {
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (error) {
    throw new PriceTableError(filePath, [`cannot be read: ${(error as Error).message}`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PriceTableError(filePath, [`is not valid JSON: ${(error as Error).message}`]);
  }
  return parsePriceTable(value, filePath);
}

/**
 * sha256 (hex) of the canonical JSON of what charges money: the spec name, the cap and the models'
 * prices. Equal tables hash equal whatever their file layout; the free-text note and the live
 * season's reference cap are left out, so editing them cannot make two validators disagree.
 */
export function priceTableHash(table: PriceTable): string {
  const charged = { scenario_spec: table.scenario_spec, cap_usd: table.cap_usd, models: table.models };
  return createHash('sha256').update(canonicalJson(charged)).digest('hex');
}

export function modelNames(table: PriceTable): string[] {
  return Object.keys(table.models).sort();
}

/** One model's prices in the meter's shape, or undefined when the model is not on the allowlist. */
export function meterPricesOf(
  table: PriceTable,
  model: string,
):
  | { promptUsdPerMillionTokens: number; completionUsdPerMillionTokens: number; cacheReadUsdPerMillionTokens: number }
  | undefined {
  if (!Object.hasOwn(table.models, model)) return undefined;
  const entry = table.models[model];
  if (entry === undefined) return undefined;
  return {
    promptUsdPerMillionTokens: entry.prompt_usd_per_million_tokens,
    completionUsdPerMillionTokens: entry.completion_usd_per_million_tokens,
    cacheReadUsdPerMillionTokens: entry.cache_read_usd_per_million_tokens,
  };
}
