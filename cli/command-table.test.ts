import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandTable, parseOptionsOf } from './command-table.ts';
import { renderHelp } from './render-help.ts';
import { parseCommand } from './parse-command.ts';

test('help aligns each command and flag in two columns, long usages on their own line', () => {
  const help = renderHelp([
    { command: 'x', usage: 'x <a>', summary: ['does x', 'and more'], flags: [{ flag: '--y N', text: ['why'] }] },
    { command: 'z', usage: 'z [--json] [--a-long-usage]', summary: ['zed'], flags: [] },
  ]);
  assert.equal(
    help,
    [
      'usage: trl <command> [options]',
      '',
      '  x <a>                      does x',
      '                             and more',
      '      --y N                    why',
      '  z [--json] [--a-long-usage]',
      '                             zed',
      '',
    ].join('\n'),
  );
});

test('a command parses exactly the flags its rows declare, with their kinds and defaults', () => {
  assert.deepEqual(parseOptionsOf('runs').limit, { type: 'string', default: '50' });
  assert.deepEqual(parseOptionsOf('eval').scenario, { type: 'string', multiple: true, default: [] });
  assert.deepEqual(parseOptionsOf('seat').json, { type: 'boolean', default: false });
  const parsed = parseCommand('eval', ['pack', '--scenario', 'a', '--scenario', 'b', '--json']);
  assert.deepEqual(parsed.positionals, ['pack']);
  assert.deepEqual(parsed.list('scenario'), ['a', 'b']);
  assert.equal(parsed.on('json'), true);
  assert.equal(parsed.text('seed'), '0');
  assert.throws(() => parseCommand('eval', ['pack', '--nope']), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' });
  assert.throws(() => parsed.text('json'), /not a string flag in the command table/);
  assert.throws(() => parseCommand('runs', ['extra'], { positionals: false }), /Unexpected argument/);
});

test('every command row has a summary and every flag a meaning', () => {
  for (const spec of commandTable) {
    assert.ok(spec.summary.length > 0, spec.usage);
    for (const flag of spec.flags) assert.match(flag.flag, /^--[a-z-]+( \S+)?$/, `${spec.usage} ${flag.flag}`);
  }
});
