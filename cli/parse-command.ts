// A command's arguments parsed with exactly the flags the command table declares for it, read back
// by kind: a flag the table does not declare cannot be parsed, nor read.
import { parseArgs } from 'node:util';
import { commandTable, parseOptionsOf } from './command-table.ts';
import { flagName } from './command-spec.ts';

export interface ParsedCommand {
  positionals: string[];
  /** A flag that takes a value: its value, or its table default, or undefined. */
  text(name: string): string | undefined;
  /** A repeatable flag's values, in order. */
  list(name: string): string[];
  /** Whether a flag without a value was given. */
  on(name: string): boolean;
}

export function parseCommand(command: string, args: string[], { positionals = true } = {}): ParsedCommand {
  const options = parseOptionsOf(command);
  const parsed = parseArgs({ args, allowPositionals: positionals, options });
  const declared = (name: string, kind: 'string' | 'boolean', multiple = false) => {
    const option = options[name];
    if (!option || option.type !== kind || Boolean(option.multiple) !== multiple)
      throw new Error(
        `trl ${command}: --${name} is not a ${multiple ? 'repeatable ' : ''}${kind} flag in the command table`,
      );
    return parsed.values[name];
  };
  return {
    positionals: parsed.positionals,
    text: (name) => declared(name, 'string') as string | undefined,
    list: (name) => (declared(name, 'string', true) as string[] | undefined) ?? [],
    on: (name) => declared(name, 'boolean') === true,
  };
}

/** Every command word the table knows (for help and the unknown-command message). */
export const commandNames: readonly string[] = [...new Set(commandTable.map((spec) => spec.command))];

export { flagName };
