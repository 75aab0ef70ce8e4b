// A per-scenario playbook in a pack's prose: SKILL.md (which the agent reads) and every other text
// file that is not code, compared with each scenario's distinctive content the way code is. Hints
// in plain language need not quote a solution line: "de-duplicate on order_id, title-case the
// region" names words only one scenario uses. So each scenario contributes its fingerprints (whole
// phrases) and its distinctive words — words of its tests, solution, expected values and named
// terms that no other scenario's fingerprints use and that are not generic vocabulary. A text that
// matches several scenarios one by one is a playbook: rejected, the matched pairs as evidence.
// Pure and linear in the pack's text; the word table is built once per fingerprint set.
import type { CanonicalPack } from '../packs/canonical-pack.ts';
import type { Rejection } from '../contracts/results.ts';
import type { FingerprintKind, ScenarioFingerprints } from './fingerprint-schema.ts';
import { findFingerprints, indexFingerprints } from './fingerprint-index.ts';
import { genericWords } from './generic-vocabulary.ts';
import { wordTokens } from './word-tokens.ts';

export const playbookLimits = {
  /** Scenarios matched one by one that make a playbook. */
  minScenarios: 2,
  /**
   * Weight of one scenario's hints that matches it: a fingerprint (a whole phrase, term or value of
   * it) weighs 2, a distinctive word 1 — so a phrase and a word, or three words. Honest prose in the
   * corpus reaches 2 at most, by ordinary words one scenario happens to use ("priced", "repeated").
   */
  minWeightPerScenario: 3,
  /** Shorter words say too little to stand for a scenario. */
  minWordLength: 5,
};

/** Kinds whose words stand for a scenario (paths and instruction phrases are shared with the agent's instruction). */
const wordKinds = new Set<FingerprintKind>([
  'test-name',
  'test-string',
  'expected-value',
  'solution-line',
  'instruction-term',
  'file-path',
]);
const codeFile = /\.(?:ts|mts|js|mjs|py)$/;

const distinctiveTables = new WeakMap<ScenarioFingerprints, Map<string, string>>();

/** Word → the one scenario whose fingerprints use it (words of two or more scenarios are left out). */
function distinctiveWords(fingerprints: ScenarioFingerprints): Map<string, string> {
  const cached = distinctiveTables.get(fingerprints);
  if (cached) return cached;
  const owners = new Map<string, string | null>();
  for (const fingerprint of fingerprints.fingerprints) {
    if (!wordKinds.has(fingerprint.kind)) continue;
    for (const word of fingerprint.text.split(' ')) {
      if (word.length < playbookLimits.minWordLength || genericWords.has(word) || /^\d+$/.test(word)) continue;
      const owner = owners.get(word);
      if (owner === undefined) owners.set(word, fingerprint.scenario);
      else if (owner !== fingerprint.scenario) owners.set(word, null);
    }
  }
  const table = new Map<string, string>();
  for (const [word, owner] of owners) if (owner !== null) table.set(word, owner);
  distinctiveTables.set(fingerprints, table);
  return table;
}

export interface PlaybookMatch {
  scenario: string;
  file: string;
  /** The hints that matched it: fingerprint wordings and distinctive words. */
  hints: string[];
}

/** Scenarios the pack's prose matches one by one (each with at least minHintsPerScenario hints). */
export function playbookMatches(pack: CanonicalPack, fingerprints: ScenarioFingerprints): PlaybookMatch[] {
  const table = distinctiveWords(fingerprints);
  const index = indexFingerprints(fingerprints);
  const byScenario = new Map<string, { file: string; hints: Map<string, number> }>();
  const note = (scenario: string, file: string, hint: string, weight: number) => {
    let entry = byScenario.get(scenario);
    if (!entry) byScenario.set(scenario, (entry = { file, hints: new Map() }));
    entry.hints.set(hint, Math.max(weight, entry.hints.get(hint) ?? 0));
  };
  for (const [file, text] of Object.entries(pack.files)) {
    if (codeFile.test(file)) continue;
    const words = wordTokens(text);
    for (const hit of findFingerprints(index, words))
      if (hit.fingerprint.kind !== 'instruction-phrase' && hit.fingerprint.kind !== 'scenario-name')
        note(hit.fingerprint.scenario, file, hit.fingerprint.display.slice(0, 60), 2);
    for (const word of new Set(words)) {
      const scenario = table.get(word);
      if (scenario) note(scenario, file, word, 1);
    }
  }
  const weightOf = (hints: Map<string, number>) => [...hints.values()].reduce((sum, weight) => sum + weight, 0);
  return [...byScenario]
    .filter(([, entry]) => weightOf(entry.hints) >= playbookLimits.minWeightPerScenario)
    .map(([scenario, entry]) => ({ scenario, file: entry.file, hints: [...entry.hints.keys()].slice(0, 8) }))
    .sort((a, b) => (a.scenario < b.scenario ? -1 : 1));
}

/** The rejection for a playbook, or nothing. */
export function playbookRejection(pack: CanonicalPack, fingerprints: ScenarioFingerprints): Rejection | undefined {
  const matches = playbookMatches(pack, fingerprints);
  if (matches.length < playbookLimits.minScenarios) return undefined;
  const pairs = matches.map((match) => `${match.scenario} ← ${match.file}: ${match.hints.join(', ')}`);
  return {
    code: 'scenario_playbook',
    message: `the pack's prose gives per-scenario hints for ${matches.length} scenarios one by one:\n${pairs.join('\n')}`,
  };
}
