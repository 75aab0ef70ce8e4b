// Which competition scenario a conversation is about: the scenario's instruction.md appears in a user
// message (whitespace aside), or at least most of its opening does (an agent may wrap or trim it).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { listScenarioFolders } from '../catalog/list-scenarios.ts';
import { loadScenario } from '../catalog/load-scenario.ts';
import { contentText, type ChatMessage } from './request-schema.ts';
import { notDeclared } from '../contracts/task-config.ts';
import { hiddenScenarioLines } from './hidden-scenario-lines.ts';
import { normaliseWhitespace } from './normalise-whitespace.ts';

export interface SimScenario {
  name: string;
  category: string;
  difficulty: 'easy' | 'medium' | 'hard';
  /** instruction.md with whitespace runs collapsed to one space. */
  normalisedInstruction: string;
  solveScript: string;
  partialScript?: string;
  /** task.toml agent_outputs: what the scenario's verifier reads. */
  agentOutputs: string[];
  /** What the agent is not shown (solution lines, expected values): coaching when a prompt holds it. */
  hiddenLines?: string[];
}

/** Harbor leaves difficulty free-form and optional; the sim plays anything else as medium. */
function simDifficulty(declared: string | undefined): SimScenario['difficulty'] {
  return declared === 'easy' || declared === 'hard' ? declared : 'medium';
}

const openingChars = 300;
const shingleWords = 4;
const minimumOverlap = 0.6;

async function readOptional(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch(() => undefined);
}

/** The scenario's test sources (tests/*.py), which the agent never sees. */
async function readTestSources(dir: string): Promise<string[]> {
  const names = await readdir(path.join(dir, 'tests')).catch(() => [] as string[]);
  const sources = await Promise.all(
    names.filter((name) => name.endsWith('.py')).map((name) => readOptional(path.join(dir, 'tests', name))),
  );
  return sources.filter((source): source is string => source !== undefined);
}

/** Every scenario under dir that has a reference solution (without one there is nothing to simulate). */
export async function loadSimScenarios(dir?: string): Promise<SimScenario[]> {
  const scenarios: SimScenario[] = [];
  for (const descriptor of await listScenarioFolders(dir)) {
    // A folder that does not load (being written, or broken) is one scenario the fleet cannot
    // recognise, never a fleet that cannot start.
    const folder = await loadScenario(descriptor.dir).catch(() => undefined);
    if (!folder) continue;
    const solveScript = await readOptional(path.join(folder.dir, 'solution', 'solve.sh'));
    if (solveScript === undefined) continue;
    const partialScript = await readOptional(path.join(folder.dir, 'solution', 'partial.sh'));
    scenarios.push({
      name: folder.name,
      category: folder.config.metadata.category ?? notDeclared,
      difficulty: simDifficulty(folder.config.metadata.difficulty),
      normalisedInstruction: normaliseWhitespace(folder.instruction),
      solveScript,
      ...(partialScript === undefined ? {} : { partialScript }),
      agentOutputs: folder.config.agent_outputs ?? [],
      hiddenLines: hiddenScenarioLines(folder.instruction, solveScript, await readTestSources(folder.dir)),
    });
  }
  return scenarios;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function shingles(wordList: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i + shingleWords <= wordList.length; i++) found.push(wordList.slice(i, i + shingleWords).join(' '));
  return found;
}

// A scenario's opening shingles, worked out once per loaded scenario rather than on every call.
const openings = new WeakMap<SimScenario, string[]>();
function openingShingles(scenario: SimScenario): string[] {
  let opening = openings.get(scenario);
  if (!opening) {
    opening = shingles(words(scenario.normalisedInstruction.slice(0, openingChars)));
    openings.set(scenario, opening);
  }
  return opening;
}

/** Share (0..1) of the instruction opening's 4-word shingles that the text's shingles hold. */
function openingOverlap(scenario: SimScenario, present: ReadonlySet<string>): number {
  const opening = openingShingles(scenario);
  if (opening.length === 0) return 0;
  return opening.filter((s) => present.has(s)).length / opening.length;
}

export function recognizeScenario(
  messages: readonly ChatMessage[],
  scenarios: readonly SimScenario[],
): SimScenario | undefined {
  const userTexts = messages.filter((m) => m.role === 'user').map((m) => normaliseWhitespace(contentText(m.content)));
  if (userTexts.length === 0) return undefined;
  for (const scenario of scenarios) {
    if (userTexts.some((text) => text.includes(scenario.normalisedInstruction))) return scenario;
  }
  // Each text's shingles once, against every scenario.
  const present = userTexts.map((text) => new Set(shingles(words(text))));
  let best: { scenario: SimScenario; overlap: number } | undefined;
  for (const scenario of scenarios) {
    const overlap = Math.max(...present.map((set) => openingOverlap(scenario, set)));
    if (overlap >= minimumOverlap && (!best || overlap > best.overlap)) best = { scenario, overlap };
  }
  return best?.scenario;
}
