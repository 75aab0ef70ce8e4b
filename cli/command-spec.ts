// The shape of a row of the command table (command-table.ts): a command, its usage and summary, its
// flags; and how a row's flags become the options node's parseArgs reads.
import type { ParseArgsConfig } from 'node:util';

export interface FlagSpec {
  /** As help shows it: the flag, then its value's placeholder if it takes one (`--scenario NAME`). */
  flag: string;
  /** What it does, as help wraps it (one string a line). */
  text: string[];
  /** The value parseArgs gives when the flag is absent. */
  default?: string;
  /** It may be given more than once (the values are collected). */
  multiple?: true;
  /** Shown in the command's usage line (`seat [--json]`), not as a row of its own in help. */
  inUsage?: true;
}

export interface CommandSpec {
  /** The words after `trl` that select the parser: `eval`, `serve keys`. */
  command: string;
  /** The help line's left column: the command with its arguments. */
  usage: string;
  /** What it does, as help wraps it (one string a line). */
  summary: string[];
  flags: FlagSpec[];
}

export type ParseOptions = NonNullable<ParseArgsConfig['options']>;

/** The name parseArgs knows a flag by: `--max-chars N` → `max-chars`. */
export function flagName(flag: FlagSpec): string {
  return flag.flag.split(' ')[0]!.replace(/^--/, '');
}

/** The parseArgs options of a command's rows: every flag they declare, strings where a placeholder follows. */
export function parseOptionsOfRows(specs: readonly CommandSpec[]): ParseOptions {
  const options: ParseOptions = {};
  for (const flag of specs.flatMap((spec) => spec.flags)) {
    const takesValue = flag.flag.includes(' ');
    options[flagName(flag)] = takesValue
      ? {
          type: 'string',
          ...(flag.multiple ? { multiple: true, default: [] } : {}),
          ...(flag.default !== undefined ? { default: flag.default } : {}),
        }
      : { type: 'boolean', default: false };
  }
  return options;
}
