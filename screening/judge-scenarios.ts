// The scenarios beside the pack in the judge's prompt: each scenario's name and the opening of its
// instruction, so the judge can see whether the pack's SKILL.md (or other prose) gives per-task hints
// that map one by one onto the scenarios — a playbook — rather than advice for any task. Bounded: each
// instruction is cut to a per-scenario share of a total budget, whitespace collapsed, and a cut is
// marked; scenarios past the budget are counted, not sent. The section stands between markers that
// carry the pack's boundary (which pack text cannot contain), so no pack can forge a scenario.
import { createHash } from 'node:crypto';
import { listScenarioFolders } from '../catalog/list-scenarios.ts';
import { loadScenario } from '../catalog/load-scenario.ts';
import { neutraliseDelimiters } from './judge-delimiters.ts';

export interface ScenarioInstruction {
  name: string;
  instruction: string;
}

export interface ScenarioExcerpt {
  name: string;
  /** The instruction's opening, whitespace collapsed, ending in " […]" when cut. */
  text: string;
}

export const scenarioDigestLimits = {
  /** Characters of instruction text for all scenarios together. */
  totalChars: 12_000,
  /** At most this much of one instruction, however few the scenarios. */
  perScenarioChars: 700,
  /** And at least this much, or the scenario is left out (counted in the note). */
  minPerScenarioChars: 160,
};

const cutMark = ' […]';

/** One instruction's opening within `limit` characters, cut at a word boundary. */
export function instructionExcerpt(instruction: string, limit: number): string {
  const flat = instruction.replace(/\s+/g, ' ').trim();
  if (flat.length <= limit) return flat;
  const room = flat.slice(0, Math.max(0, limit - cutMark.length));
  const space = room.lastIndexOf(' ');
  return `${space > room.length / 2 ? room.slice(0, space) : room}${cutMark}`;
}

/** The excerpts the judge is shown, in name order, and how many scenarios did not fit. */
export function scenarioDigest(scenarios: readonly ScenarioInstruction[]): {
  excerpts: ScenarioExcerpt[];
  omitted: number;
} {
  const sorted = [...scenarios].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const per = Math.max(
    scenarioDigestLimits.minPerScenarioChars,
    Math.min(
      scenarioDigestLimits.perScenarioChars,
      Math.floor(scenarioDigestLimits.totalChars / Math.max(1, sorted.length)),
    ),
  );
  const fit = Math.min(sorted.length, Math.floor(scenarioDigestLimits.totalChars / per));
  return {
    excerpts: sorted.slice(0, fit).map((scenario) => ({
      name: scenario.name,
      text: instructionExcerpt(scenario.instruction, per),
    })),
    omitted: sorted.length - fit,
  };
}

function scenarioBegin(boundary: string, name: string): string {
  return `<<<${boundary} SCENARIO name=${JSON.stringify(neutraliseDelimiters(name))}>>>`;
}

function scenarioEnd(boundary: string, name: string): string {
  return `<<<${boundary} END SCENARIO name=${JSON.stringify(neutraliseDelimiters(name))}>>>`;
}

/** The scenario section of the judge's user message (empty without scenarios). */
export function renderScenarioDigest(digest: ReturnType<typeof scenarioDigest>, boundary: string): string {
  if (digest.excerpts.length === 0) return '';
  const blocks = digest.excerpts.map(
    (excerpt) =>
      `${scenarioBegin(boundary, excerpt.name)}\n${neutraliseDelimiters(excerpt.text)}\n${scenarioEnd(boundary, excerpt.name)}`,
  );
  const cut = digest.excerpts.some((excerpt) => excerpt.text.endsWith(cutMark));
  const notes = [
    cut ? `Instructions longer than their share are cut; a cut ends in "${cutMark.trim()}".` : '',
    digest.omitted > 0
      ? `${digest.omitted} more scenario${digest.omitted === 1 ? ' was' : 's were'} left out for length.`
      : '',
  ].filter(Boolean);
  return `The benchmark's scenarios, for comparison with the pack (the validator's data, not the pack's; ${digest.excerpts.length} scenario${digest.excerpts.length === 1 ? '' : 's'}, each its name and the opening of its instruction).${notes.length ? ` ${notes.join(' ')}` : ''}

${blocks.join('\n\n')}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The inverse of renderScenarioDigest, for readers of the prompt (the sim fleet's judge): only real markers count. */
export function parseScenarioDigest(text: string, boundary: string): ScenarioExcerpt[] {
  const b = escapeRegExp(boundary);
  const block = new RegExp(
    `<<<${b} SCENARIO name=("(?:[^"\\\\\\n]|\\\\.)*")>>>\\n([\\s\\S]*?)\\n<<<${b} END SCENARIO name=\\1>>>`,
    'g',
  );
  const found: ScenarioExcerpt[] = [];
  for (const match of text.matchAll(block)) {
    try {
      found.push({ name: JSON.parse(match[1]!) as string, text: match[2]! });
    } catch {
      // Not a marker this module wrote.
    }
  }
  return found;
}

/** Part of the judge's cache key: a changed scenario set is a different question. */
export function scenarioDigestHash(digest: ReturnType<typeof scenarioDigest>): string {
  return createHash('sha256').update(JSON.stringify(digest)).digest('hex').slice(0, 12);
}

/** Name and instruction of every scenario in these folders (later folders win a name); unreadable ones skipped. */
export async function readScenarioInstructions(dirs: readonly string[]): Promise<ScenarioInstruction[]> {
  const byName = new Map<string, ScenarioInstruction>();
  for (const dir of dirs) {
    for (const descriptor of await listScenarioFolders(dir).catch(() => [])) {
      const folder = await loadScenario(descriptor.dir).catch(() => undefined);
      if (folder) byName.set(folder.name, { name: folder.name, instruction: folder.instruction });
    }
  }
  return [...byName.values()];
}
