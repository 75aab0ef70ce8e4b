import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  PriceTableError,
  loadPriceTable,
  meterPricesOf,
  modelNames,
  parsePriceTable,
  priceTableHash,
} from './price-table.ts';

const catalogPath = fileURLToPath(new URL('./season-2-catalog.json', import.meta.url));

test('the season-2 catalog lists the eight allowlisted models', () => {
  const table = loadPriceTable(catalogPath);
  assert.equal(table.scenario_spec, 'season-2');
  assert.deepEqual(modelNames(table), [
    'deepseek-v4-flash-0731',
    'deepseek-v4.1-flash',
    'glm-5.2',
    'glm-5.3',
    'glm-5.3-flash',
    'kimi-k3',
    'qwen3.6-35b-a3b',
    'qwen3.8-27b',
  ]);
  assert.equal(table.cap_usd, 1);
  assert.equal(table.live_cap_usd, 0.3);
});

test('kimi-k3 costs 1.95 / 9.75 / 0.195 dollars per million tokens', () => {
  const table = loadPriceTable(catalogPath);
  assert.deepEqual(table.models['kimi-k3'], {
    prompt_usd_per_million_tokens: 1.95,
    completion_usd_per_million_tokens: 9.75,
    cache_read_usd_per_million_tokens: 0.195,
  });
  assert.deepEqual(meterPricesOf(table, 'kimi-k3'), {
    promptUsdPerMillionTokens: 1.95,
    completionUsdPerMillionTokens: 9.75,
    cacheReadUsdPerMillionTokens: 0.195,
  });
  assert.equal(meterPricesOf(table, 'gpt-5'), undefined);
  assert.equal(meterPricesOf(table, 'constructor'), undefined);
});

test('the hash is pinned, and ignores key order, layout and the note but not prices or the cap', () => {
  const table = loadPriceTable(catalogPath);
  const hash = priceTableHash(table);
  // Changing this value means every validator's season-2 prices changed: bump the spec with it.
  assert.equal(hash, '77561642266c441b857abbb29135b2441706205befcdc51a6edd216449ae44c0');
  const reversedModels = Object.fromEntries(Object.entries(table.models).reverse());
  const reordered = JSON.parse(
    JSON.stringify(
      { models: reversedModels, note: table.note, cap_usd: table.cap_usd, scenario_spec: table.scenario_spec },
      null,
      4,
    ),
  );
  assert.equal(priceTableHash(parsePriceTable(reordered)), hash);
  assert.equal(priceTableHash({ ...table, note: 'reworded' }), hash);
  assert.notEqual(priceTableHash({ ...table, cap_usd: 0.3 }), hash);
  const repriced = structuredClone(table);
  repriced.models['kimi-k3']!.completion_usd_per_million_tokens = 9.76;
  assert.notEqual(priceTableHash(repriced), hash);
});

function problemsOf(value: unknown): string[] {
  try {
    parsePriceTable(value, 'test.json');
  } catch (error) {
    assert.ok(error instanceof PriceTableError);
    assert.match(error.message, /^price table test\.json is invalid:/);
    return error.problems;
  }
  assert.fail('expected the table to be refused');
}

const valid = {
  scenario_spec: 'season-2',
  cap_usd: 1,
  models: {
    'kimi-k3': {
      prompt_usd_per_million_tokens: 1.95,
      completion_usd_per_million_tokens: 9.75,
      cache_read_usd_per_million_tokens: 0.195,
    },
  },
};

test('errors name the field and the fix, all at once', () => {
  const problems = problemsOf({
    ...valid,
    cap_usd: 0,
    models: {
      'kimi-k3': { prompt_usd_per_million_tokens: '1.95', completion_usd_per_million_tokens: 9.7501 },
    },
  });
  assert.deepEqual(problems, [
    'cap_usd: must be above 0 (the per-scenario cap this validator enforces)',
    'models.kimi-k3.prompt_usd_per_million_tokens: must be a number (the prompt price in USD per million tokens, e.g. 0.045), got "1.95"',
    'models.kimi-k3.completion_usd_per_million_tokens: must have at most three decimals ($0.001 per million tokens is the smallest step the meter charges exactly); round it',
    'models.kimi-k3.cache_read_usd_per_million_tokens: is missing: add the cache-read price in USD per million tokens, e.g. 0.045',
  ]);
});

test('unknown fields, free completions, missing parts and empty allowlists are refused', () => {
  assert.deepEqual(problemsOf({ ...valid, cap_usdd: 1 }), [
    '(the table): unknown field "cap_usdd"; remove it or fix the spelling',
  ]);
  assert.deepEqual(
    problemsOf({ ...valid, models: { m: { ...valid.models['kimi-k3'], completion_usd_per_million_tokens: 0 } } }),
    ['models.m.completion_usd_per_million_tokens: must be above 0 (a free completion leaves a reservation unbounded)'],
  );
  assert.deepEqual(problemsOf({ ...valid, models: {} }), ['models: must list at least one model']);
  assert.deepEqual(problemsOf({ cap_usd: 1, models: valid.models }), [
    'scenario_spec: is missing: name the scenario spec this table belongs to, e.g. "season-2"',
  ]);
  assert.deepEqual(problemsOf([]), ['(the table): a price table must be a JSON object']);
  assert.deepEqual(problemsOf({ ...valid, models: { m: 3 } }), ['models.m: must be an object of three prices']);
});

test('a file that is not JSON is refused with its path', () => {
  const directory = mkdtempSync(join(tmpdir(), 'price-table-'));
  const broken = join(directory, 'broken.json');
  writeFileSync(broken, '{"cap_usd": 1,');
  assert.throws(
    () => loadPriceTable(broken),
    (error: unknown) => {
      assert.ok(error instanceof PriceTableError);
      assert.match(error.message, /broken\.json is invalid:\n  - is not valid JSON/);
      return true;
    },
  );
  assert.throws(() => loadPriceTable(join(directory, 'absent.json')), /absent\.json is invalid:\n  - cannot be read/);
});
