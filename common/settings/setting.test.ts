import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { blankAsUnset, documentedDefault, readSetting, settingTable, settingsShape } from './setting.ts';

const table = settingTable({
  TRL_A: {
    schema: blankAsUnset(z.coerce.number().int().positive('TRL_A must be positive').default(4)),
    description: 'a',
  },
  TRL_B: { schema: z.string().min(3, 'TRL_B is too short').optional(), description: 'b', secret: true },
  TRL_C: { schema: z.string().optional(), defaultText: 'the host name', description: 'c' },
  TRL_D: { schema: z.coerce.number().default(64 * 1024 * 1024), description: 'd' },
});

test('readSetting: the default when unset or blank, a ConfigError naming the variable otherwise', () => {
  assert.equal(readSetting(table, 'TRL_A', {}), 4);
  assert.equal(readSetting(table, 'TRL_A', { TRL_A: '  ' }), 4);
  assert.equal(readSetting(table, 'TRL_A', { TRL_A: '7' }), 7);
  assert.throws(() => readSetting(table, 'TRL_A', { TRL_A: '-1' }), {
    name: 'ConfigError',
    message: 'TRL_A: TRL_A must be positive (got "-1")',
  });
});

test('a secret is never echoed back', () => {
  assert.throws(() => readSetting(table, 'TRL_B', { TRL_B: 'ab' }), { message: 'TRL_B: TRL_B is too short' });
});

test('documented defaults come from the schema unless the code computes them', () => {
  assert.equal(documentedDefault(table.TRL_A), '`4`');
  assert.equal(documentedDefault(table.TRL_B), 'unset');
  assert.equal(documentedDefault(table.TRL_C), 'the host name');
  assert.equal(documentedDefault(table.TRL_D), '`67108864` (64 MiB)');
});

test('settingsShape builds an object schema from chosen settings', () => {
  const schema = z.object(settingsShape(table, ['TRL_A', 'TRL_C']));
  const parsed = schema.parse({ TRL_A: '2', TRL_B: 'ignored' });
  assert.equal(parsed.TRL_A, 2);
  assert.equal(parsed.TRL_C, undefined);
  assert.ok(!('TRL_B' in parsed));
});
