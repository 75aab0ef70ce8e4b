import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  chargedPriceTable,
  defaultAllowlistFile,
  loadAllowlist,
  loadSpecPriceTable,
  parseAllowlist,
  pricingIdentity,
} from './allowlist.ts';
import { priceTableHash } from './price-table.ts';
import { listScenarioFolders } from '../../catalog/list-scenarios.ts';
import { loadScenario } from '../../catalog/load-scenario.ts';

const specTable = loadSpecPriceTable();

test('the allowlist is the eight models of the frozen table, priced by it', () => {
  const { models } = loadAllowlist(defaultAllowlistFile);
  assert.deepEqual(models.map((m) => m.id).sort(), Object.keys(specTable.models).sort());
  assert.equal(models.length, 8);
  const kimi = models.find((m) => m.id === 'kimi-k3')!;
  assert.deepEqual(kimi.pricing, {
    inputUsdPerMillion: 1.95,
    cachedInputUsdPerMillion: 0.195,
    outputUsdPerMillion: 9.75,
  });
  const flash = models.find((m) => m.id === 'deepseek-v4-flash-0731')!;
  assert.deepEqual(flash.pricing, {
    inputUsdPerMillion: 0.045,
    cachedInputUsdPerMillion: 0.009,
    outputUsdPerMillion: 0.09,
  });
});

test('the shipped files charge the spec table: official, and the hash is the table hash', () => {
  const allowlist = loadAllowlist(defaultAllowlistFile);
  assert.deepEqual(chargedPriceTable(allowlist, 1, specTable).models, specTable.models);
  const identity = pricingIdentity(allowlist, specTable.cap_usd, specTable);
  assert.deepEqual(identity, { priceTableHash: priceTableHash(specTable), official: true });
  assert.match(identity.priceTableHash, /^[0-9a-f]{64}$/);
});

test('an operator price or cap override is unofficial and hashes differently', () => {
  const file = JSON.parse(readFileSync(defaultAllowlistFile, 'utf8'));
  file.models[0].prices = {
    prompt_usd_per_million_tokens: 1,
    completion_usd_per_million_tokens: 2,
    cache_read_usd_per_million_tokens: 0.5,
  };
  const overridden = parseAllowlist(JSON.stringify(file), 'operator file', specTable);
  assert.equal(overridden.models[0]!.pricing.outputUsdPerMillion, 2);
  const priced = pricingIdentity(overridden, 1, specTable);
  assert.equal(priced.official, false);
  assert.notEqual(priced.priceTableHash, priceTableHash(specTable));
  const capped = pricingIdentity(loadAllowlist(defaultAllowlistFile), 0.3, specTable);
  assert.equal(capped.official, false);
});

test('a model outside the spec table needs its own prices', () => {
  const file = JSON.parse(readFileSync(defaultAllowlistFile, 'utf8'));
  file.models[0].id = 'gpt-unlisted';
  assert.throws(
    () => parseAllowlist(JSON.stringify(file), 'operator file', specTable),
    /gpt-unlisted is not in the season-2 price table; give it prices/,
  );
});

test('the sim profiles cover every category of the active scenarios', async () => {
  const categories = new Set<string>();
  for (const scenario of await listScenarioFolders())
    categories.add((await loadScenario(scenario.dir)).config.metadata.category ?? '');
  for (const model of loadAllowlist(defaultAllowlistFile).models) {
    for (const category of categories)
      assert.ok(category in model.sim.competence.byCategory, `${model.id} has no competence for ${category}`);
  }
});

test('a bad allowlist names the field', () => {
  assert.throws(() => parseAllowlist(JSON.stringify({ version: 1, models: [{ id: 'X Y' }] })), /field "models.0.id"/);
  assert.throws(() => parseAllowlist('{'), /not JSON/);
  const file = JSON.parse(readFileSync(defaultAllowlistFile, 'utf8'));
  assert.throws(
    () => parseAllowlist(JSON.stringify({ version: 1, models: [file.models[0], file.models[0]] })),
    /unique/,
  );
});
