// What a setting is: an environment variable declared once, with the zod schema that reads its text
// (its default included), what it means, and how its default reads when the code computes it. The
// readers of the project get their values through `readSetting` or build their object schemas from
// `settingsShape`, so the variable, its checks and its documentation (docs/reference/settings.md,
// written by `trl docs`) cannot drift apart.
import { z } from 'zod';
import { ConfigError } from '../config-error.ts';

export interface Setting<S extends z.ZodType = z.ZodType> {
  /** Reads the variable's text (undefined when unset) into its value; a `.default(…)` is the documented default. */
  schema: S;
  /** What the variable means, one or two sentences (Markdown). */
  description: string;
  /** The default in words, when the code computes it (a path, another variable, this host): else the schema's. */
  defaultText?: string;
  /** Never echoed back in an error or a log. */
  secret?: boolean;
}

export type SettingTable = Record<string, Setting>;

/** A group of settings as the reference page shows it. */
export interface SettingGroup {
  title: string;
  /** One sentence on who reads these and when. */
  about: string;
  settings: SettingTable;
  /** Read only by the tests or set by the validator for its own child processes: listed apart. */
  internal?: boolean;
}

/** Declares a table of settings, keeping each entry's schema type. */
export function settingTable<T extends Record<string, Setting>>(table: T): T {
  return table;
}

/** The zod object shape of some settings of a table, for a reader that checks them together. */
export function settingsShape<T extends SettingTable, K extends keyof T & string>(
  table: T,
  names: readonly K[],
): { [N in K]: T[N]['schema'] } {
  return Object.fromEntries(names.map((name) => [name, table[name]!.schema])) as { [N in K]: T[N]['schema'] };
}

/** One setting's value from `env`; a ConfigError naming the variable and what it expects otherwise. */
export function readSetting<T extends SettingTable, K extends keyof T & string>(
  table: T,
  name: K,
  env: Record<string, string | undefined> = process.env,
): z.output<T[K]['schema']> {
  const parsed = table[name]!.schema.safeParse(env[name]);
  if (parsed.success) return parsed.data as z.output<T[K]['schema']>;
  const shown = table[name]!.secret ? '' : ` (got ${JSON.stringify(String(env[name]).slice(0, 80))})`;
  throw new ConfigError(`${name}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}${shown}`);
}

/** The default as the reference shows it: the declared words, else the schema's default value, else "unset". */
export function documentedDefault(setting: Setting): string {
  if (setting.defaultText !== undefined) return setting.defaultText;
  let definition = setting.schema.def as { type: string; defaultValue?: unknown; out?: z.ZodType };
  // A preprocessed schema (blank text as unset) is a pipe whose output schema carries the default.
  while (definition.type === 'pipe' && definition.out) definition = definition.out.def as typeof definition;
  if (definition.type !== 'default') return 'unset';
  const value = definition.defaultValue;
  if (value === '') return 'empty';
  const mebibytes = typeof value === 'number' && value >= 1024 * 1024 && value % (1024 * 1024) === 0;
  return `\`${String(value)}\`${mebibytes ? ` (${value / (1024 * 1024)} MiB)` : ''}`;
}

/** Blank text counts as unset, so the schema's default applies. */
export function blankAsUnset<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema);
}

/** Empty and blank text count as unset. */
export const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

/** A whole number of seconds, milliseconds or bytes, or a count, that must be at least `min`. */
export function wholeNumber(name: string, what: string, min = 1) {
  return z.coerce
    .number({ error: `${name} must be ${what}` })
    .int(`${name} must be ${what}`)
    .min(min, `${name} must be ${what}`);
}

/** A TCP port number. */
export function portNumber(name: string) {
  return wholeNumber(name, 'a TCP port number').max(65535, `${name} must be a TCP port number`);
}
