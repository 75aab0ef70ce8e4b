// The sim judge's reading of SKILL.md and the pack's other prose beside the scenarios its prompt
// shows: a per-task playbook is a set of hints that map one by one onto different scenarios. Each
// scenario stands for the words of its instruction excerpt that no other scenario's excerpt uses
// (and that are not generic task vocabulary); a hint (a line of prose) matches a scenario when it
// holds two of that scenario's words and fewer of any other's. Hints matching two or more scenarios
// one by one are flagged scenario_gaming, each hint its own evidence. Advice for any task names no
// scenario's own words, so it passes.
import { genericWords } from '../screening/generic-vocabulary.ts';
import type { JudgeFlagType, ScenarioExcerpt } from '../screening/judge-protocol.ts';

export const simPlaybookLimits = {
  /** Distinctive words of one scenario a hint must hold. */
  minWordsPerHint: 2,
  /** Scenarios matched one by one that make a playbook. */
  minScenarios: 2,
  minWordLength: 5,
};

const proseFile = /(?:^|\/)SKILL\.md$|\.(?:md|txt|rst)$/i;

function words(text: string): Set<string> {
  const found = new Set<string>();
  for (const word of text.toLowerCase().match(/[a-z][a-z0-9_]*/g) ?? []) {
    if (word.length < simPlaybookLimits.minWordLength || genericWords.has(word)) continue;
    found.add(word);
    // `order_id` is also `order` and `id` in prose.
    if (word.includes('_'))
      for (const part of word.split('_')) if (part.length >= simPlaybookLimits.minWordLength) found.add(part);
  }
  return found;
}

/** Each scenario's words that no other scenario's excerpt uses. */
function distinctiveWords(scenarios: readonly ScenarioExcerpt[]): Map<string, Set<string>> {
  const owners = new Map<string, string | null>();
  for (const scenario of scenarios) {
    for (const word of words(`${scenario.name.replace(/-/g, ' ')} ${scenario.text}`)) {
      const owner = owners.get(word);
      if (owner === undefined) owners.set(word, scenario.name);
      else if (owner !== scenario.name) owners.set(word, null);
    }
  }
  const table = new Map<string, Set<string>>();
  for (const [word, owner] of owners) {
    if (owner === null) continue;
    if (!table.has(owner)) table.set(owner, new Set());
    table.get(owner)!.add(word);
  }
  return table;
}

export interface PlaybookHint {
  type: JudgeFlagType;
  file: string;
  /** The hint's line, trimmed: a verbatim excerpt of the file. */
  evidence: string;
  scenario: string;
  words: string[];
}

/** The hints of the pack's prose that match scenarios one by one, when they match at least two scenarios. */
export function playbookHints(
  files: readonly { path: string; text: string }[],
  scenarios: readonly ScenarioExcerpt[],
): PlaybookHint[] {
  const table = distinctiveWords(scenarios);
  const hints: PlaybookHint[] = [];
  for (const file of files) {
    if (!proseFile.test(file.path)) continue;
    for (const line of file.text.split('\n')) {
      const evidence = line.trim();
      if (evidence.length < 12) continue;
      const held = words(evidence);
      let best: { scenario: string; words: string[] } | undefined;
      let tied = false;
      for (const [scenario, own] of table) {
        const matched = [...held].filter((word) => own.has(word));
        if (matched.length < simPlaybookLimits.minWordsPerHint) continue;
        if (!best || matched.length > best.words.length) [best, tied] = [{ scenario, words: matched }, false];
        else if (matched.length === best.words.length) tied = true;
      }
      if (best && !tied)
        hints.push({ type: 'scenario_gaming', file: file.path, evidence: evidence.slice(0, 240), ...best });
    }
  }
  const matchedScenarios = new Set(hints.map((hint) => hint.scenario));
  return matchedScenarios.size >= simPlaybookLimits.minScenarios ? hints : [];
}
