// `trl help`: the command table in two aligned columns, as it has always printed.
import { commandTable } from './command-table.ts';
import type { CommandSpec } from './command-spec.ts';

const usageColumn = 27;
const flagColumn = 25;

/** `trl help`: each command's usage and summary, then its flags, in two aligned columns. */
export function renderHelp(table: readonly CommandSpec[] = commandTable): string {
  const lines = ['usage: trl <command> [options]', ''];
  const columns = (indent: number, left: string, width: number, text: readonly string[]) => {
    const pad = ' '.repeat(indent + width);
    if (left.length <= width - 2) lines.push(`${' '.repeat(indent)}${left.padEnd(width)}${text[0] ?? ''}`.trimEnd());
    else lines.push(`${' '.repeat(indent)}${left}`, `${pad}${text[0] ?? ''}`);
    for (const line of text.slice(1)) lines.push(`${pad}${line}`);
  };
  for (const spec of table) {
    columns(2, spec.usage, usageColumn, spec.summary);
    for (const flag of spec.flags.filter((f) => !f.inUsage)) columns(6, flag.flag, flagColumn, flag.text);
  }
  return `${lines.join('\n')}\n`;
}
