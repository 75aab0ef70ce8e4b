// docs/reference/commands.md: every `trl` command and flag, from the table `trl help` prints and
// main.ts parses with (cli/command-table.ts).
import { commandTable, parseOptionsOf } from '../command-table.ts';
import { flagName, type CommandSpec } from '../command-spec.ts';
import { code, generatedHeader, markdownTable } from './markdown.ts';

function anchorOf(spec: CommandSpec): string {
  return `trl ${spec.usage}`;
}

function flagDefault(spec: CommandSpec, name: string): string {
  const option = parseOptionsOf(spec.command)[name];
  if (!option || option.type === 'boolean') return '';
  if (option.multiple) return 'repeatable';
  return option.default === undefined ? '' : code(String(option.default));
}

export function commandsPage(): string {
  const sections = commandTable.map((spec) => {
    const flags =
      spec.flags.length === 0
        ? ''
        : `\n${markdownTable(
            ['flag', 'default', 'meaning'],
            spec.flags.map((flag) => [code(flag.flag), flagDefault(spec, flagName(flag)), flag.text.join(' ')]),
          )}`;
    return `## ${code(anchorOf(spec))}\n\n${spec.summary.join(' ')}.\n${flags}`;
  });
  return [
    generatedHeader('cli/command-table.ts'),
    '# Commands',
    '',
    'Every `trl` command and flag: the table `./trl help` prints and the command line parses with, so a flag',
    'listed here is a flag `trl` accepts. Bad input exits 64 with a message; `trl help` exits 0.',
    '',
    sections.join('\n'),
  ].join('\n');
}
