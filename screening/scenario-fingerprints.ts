// Fingerprints of the scenarios: the strings a policy that recognises scenarios or replays answers
// would have to embed (instruction phrases, test names and expected strings, file paths, fixture
// values, solution lines). Each is stored in the word normal form (word-tokens.ts) with its kind and
// scenario. Anything found in two or more scenarios is boilerplate, not a fingerprint, and dropped.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  modelCatalogFile,
  policySdkDir as sdkDir,
  scenariosDir as defaultScenariosDir,
} from '../common/data-layout.ts';
import { findFingerprints, indexFingerprints } from './fingerprint-index.ts';
import {
  fingerprintKinds,
  scenarioFingerprintsSchema,
  type Fingerprint,
  type FingerprintKind,
  type ScenarioFingerprints,
} from './fingerprint-schema.ts';

export {
  fingerprintKinds,
  fingerprintSchema,
  scenarioFingerprintsSchema,
  type Fingerprint,
  type FingerprintKind,
  type ScenarioFingerprints,
} from './fingerprint-schema.ts';
import { distinctiveWordCount, isCommonNumber } from './generic-vocabulary.ts';
import { pythonStringLiterals, pythonTestNames } from './python-literals.ts';
import {
  readAllScenarioSources,
  sourcesDigest,
  type ScenarioSources,
  type SkippedScenario,
} from './scenario-sources.ts';
import { normalizeWords, wordTokens } from './word-tokens.ts';

export const fingerprintLimits = {
  shingleWords: 8,
  /** Solution lines and test strings are cut to this many words; long lines stay matchable in part. */
  maxWordsPerFingerprint: 24,
  maxFixtureValuesPerScenario: 300,
  /** Names, paths and values found in up to this many scenarios stay fingerprints (of each of them). */
  maxScenariosPerSharedFingerprint: 3,
  maxDisplayChars: 200,
};

const sharedKinds = new Set<FingerprintKind>([
  'test-name',
  'scenario-name',
  'file-path',
  'expected-value',
  'fixture-value',
]);
const excludedPathRoots = new Set([
  'usr',
  'bin',
  'sbin',
  'dev',
  'proc',
  'sys',
  'lib',
  'lib64',
  'logs',
  'tests',
  'solution',
  'tmp',
]);
const technicalToken =
  /^(?:u?int\d+(?:_t)?|utf-?\d+|sha\d+|md5|x86_64|i[3-6]86|amd64|arm64|aarch64|base64|python\d(?:\.\d+)*|py3|ipv[46]|http2|iso\d+|latin-?1|win32|c\d\d|gnu\d+|x[0-9a-f]{2}|[0-9a-f]{1,4})$/i;
const pathPattern = /(?:^|[\s`'"(=:,[{>])((?:~?\/|\.\/)?[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.*-]+)+\/?)/g;

const display = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > fingerprintLimits.maxDisplayChars
    ? `${flat.slice(0, fingerprintLimits.maxDisplayChars - 1)}…`
    : flat;
};
const firstWords = (words: string[]) => words.slice(0, fingerprintLimits.maxWordsPerFingerprint).join(' ');

type Candidates = Map<string, { kind: FingerprintKind; display: string }>;

function add(candidates: Candidates, kind: FingerprintKind, text: string, original: string): void {
  if (text === '' || candidates.has(text)) return;
  candidates.set(text, { kind, display: display(original) });
}

/** Whether a short text (a literal, a term) is specific enough to stand for one scenario. */
function specificEnough(original: string, words: string[]): boolean {
  if (words.length === 0 || distinctiveWordCount(words) === 0) return false;
  if (words.length === 1) {
    const word = words[0]!;
    if (technicalToken.test(word)) return false;
    return (
      (/\d/.test(word) && /[a-z]/.test(word) && word.length >= 6) ||
      (/\w[_.-]\w|[a-z][A-Z]/.test(original) && word.length >= 8) ||
      word.length >= 12
    );
  }
  return words.join(' ').length >= 8 && distinctiveWordCount(words) >= 2;
}

function paths(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(pathPattern)) {
    const candidate = match[1]!.replace(/[.,:]+$/, '');
    const segments = candidate.split('/').filter((segment) => segment !== '' && segment !== '.' && segment !== '~');
    const absolute = candidate.startsWith('/') || candidate.startsWith('~/');
    if (segments.length < 2) continue;
    if (absolute && excludedPathRoots.has(segments[0]!)) continue;
    if (!absolute && !segments.some((segment) => /\.[A-Za-z0-9]{1,8}$/.test(segment))) continue;
    found.push(candidate);
  }
  return found;
}

function addPaths(candidates: Candidates, text: string): void {
  for (const candidate of paths(text)) {
    const words = wordTokens(candidate);
    if (words.join(' ').length >= 8 && distinctiveWordCount(words) >= 1)
      add(candidates, 'file-path', words.join(' '), candidate);
  }
}

function addTestFile(candidates: Candidates, file: { path: string; text: string }): void {
  if (file.path.endsWith('.py')) {
    for (const { name } of pythonTestNames(file.text)) {
      const words = wordTokens(name);
      if (words.length >= 3) add(candidates, 'test-name', words.join(' '), name);
    }
  }
  addPaths(candidates, file.text);
  const literals: string[] = [];
  if (file.path.endsWith('.py')) {
    for (const literal of pythonStringLiterals(file.text)) if (!literal.formatted) literals.push(literal.value);
  } else if (file.path.endsWith('.json')) {
    try {
      const collect = (value: unknown): void => {
        if (typeof value === 'string') literals.push(value);
        else if (value && typeof value === 'object')
          for (const [key, inner] of Object.entries(value)) {
            literals.push(key);
            collect(inner);
          }
      };
      collect(JSON.parse(file.text));
    } catch {
      // Not JSON after all: its paths above are all it gives.
    }
  }
  for (const literal of literals) {
    for (const lineText of literal.split('\n')) {
      // Dates and times say little about a scenario and recur in honest prompts ("as of 2024-01-01").
      if (/^[\d\s:.\/TZ+-]*$/.test(lineText)) continue;
      const words = wordTokens(lineText);
      if (specificEnough(lineText.trim(), words)) add(candidates, 'test-string', firstWords(words), lineText.trim());
    }
  }
  if (file.path.endsWith('.py')) {
    for (const match of file.text.matchAll(/(?<![\w.])\d{5,}(?![\w.])/g)) {
      if (!isCommonNumber(match[0])) add(candidates, 'expected-value', match[0], match[0]);
    }
  }
}

function addSolutionFile(candidates: Candidates, file: { path: string; text: string }): void {
  addPaths(candidates, file.text);
  for (const rawLine of file.text.split('\n')) {
    const line = rawLine.trim();
    // Shebangs, shell options and imports open every script; they say nothing about the scenario.
    if (/^(?:#!|set\s+-|(?:from\s+\S+\s+)?import\s)/.test(line)) continue;
    const words = wordTokens(line);
    const text = firstWords(words);
    if (words.length >= 4 && text.length >= 20 && distinctiveWordCount(words) >= 2)
      add(candidates, 'solution-line', text, line);
  }
}

function fixtureTokens(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/[A-Za-z0-9][A-Za-z0-9_.@+-]*[A-Za-z0-9]/g)) {
    const token = match[0];
    if (/^\d+$/.test(token)) {
      if (token.length >= 5 && !isCommonNumber(token)) found.push(token);
      continue;
    }
    if (/^[\w.+-]+@[\w-]+\.[\w.]+$/.test(token)) {
      found.push(token);
      continue;
    }
    const digits = token.replace(/\D/g, '').length;
    const letters = token.replace(/[^A-Za-z]/g, '').length;
    if (token.length < 6 || digits < 2 || letters < 2 || technicalToken.test(token)) continue;
    if (
      /^\d{4}-\d{2}-\d{2}/.test(token) ||
      /^v?\d+(?:\.\d+)+[a-z]?$/i.test(token) ||
      /^\d+(?:\.\d+)?(?:ms|s|m|h|d|kb|mb|gb|px|%)$/i.test(token)
    )
      continue;
    found.push(token);
  }
  return found;
}

function addInstruction(candidates: Candidates, instruction: string): void {
  addPaths(candidates, instruction);
  const title = /^#\s+(.+)$/m.exec(instruction)?.[1];
  if (title) {
    const words = wordTokens(title);
    if (words.length >= 3 && distinctiveWordCount(words) >= 1)
      add(candidates, 'instruction-title', words.join(' '), title);
  }
  for (const match of instruction.matchAll(/`([^`\n]{3,80})`|\*\*([^*\n]{3,80})\*\*/g)) {
    const term = (match[1] ?? match[2]!).trim();
    const words = wordTokens(term);
    if (words.length === 1 ? words[0]!.length >= 6 && specificEnough(term, words) : specificEnough(term, words))
      add(candidates, 'instruction-term', words.join(' '), term);
  }
  // Shingles carry their original wording for the miner: cut it from the instruction by word positions.
  const located = [...instruction.matchAll(/[\p{L}\p{N}]+/gu)];
  const words = located.map((match) => match[0].toLowerCase());
  const size = fingerprintLimits.shingleWords;
  for (let start = 0; start + size <= words.length; start++) {
    const window = words.slice(start, start + size);
    if (distinctiveWordCount(window) < 2) continue;
    const first = located[start]!;
    const last = located[start + size - 1]!;
    add(
      candidates,
      'instruction-phrase',
      window.join(' '),
      instruction.slice(first.index, (last.index ?? 0) + last[0].length),
    );
  }
}

function scenarioCandidates(source: ScenarioSources): { candidates: Candidates; fixtures: Map<string, string> } {
  const candidates: Candidates = new Map();
  for (const file of source.tests) addTestFile(candidates, file);
  const nameWords = wordTokens(source.name);
  if (nameWords.length >= 2 || source.name.length >= 8)
    add(candidates, 'scenario-name', nameWords.join(' '), source.name);
  for (const file of source.solutions) addSolutionFile(candidates, file);
  // Fixture values are sampled after the cross-scenario filter, so they are kept apart until then.
  const fixtures = new Map<string, string>();
  for (const file of source.environment) {
    for (const token of fixtureTokens(file.text)) {
      const text = normalizeWords(token);
      if (text.length >= 5 && !fixtures.has(text)) fixtures.set(text, token);
    }
  }
  addInstruction(candidates, source.instruction);
  return { candidates, fixtures };
}

const kindOrder = new Map(fingerprintKinds.map((kind, index) => [kind, index]));
const byPosition = (a: Fingerprint, b: Fingerprint) =>
  a.scenario < b.scenario
    ? -1
    : a.scenario > b.scenario
      ? 1
      : kindOrder.get(a.kind)! - kindOrder.get(b.kind)! || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
const sampleKey = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Texts every honest policy may contain: the SDK (bundled into every policy) and the model allowlist
 * (ids, prices, context windows a policy may well hard-code). Nothing found in them can tell a
 * gaming policy apart.
 */
export async function readHonestReferenceTexts(): Promise<string[]> {
  const names = (await readdir(sdkDir)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts')).sort();
  const sdk = await Promise.all(names.map((name) => readFile(path.join(sdkDir, name), 'utf8')));
  const models = await readFile(modelCatalogFile, 'utf8').catch(() => '');
  return [...sdk, models];
}

/**
 * Pure: fingerprints from scenario texts already read, minus anything occurring in `honestTexts`
 * (the policy SDK, which every bundle contains). Deterministic for the same input.
 */
export function fingerprintsFromSources(
  sources: readonly ScenarioSources[],
  options: { skipped?: SkippedScenario[]; honestTexts?: string[] } = {},
): ScenarioFingerprints {
  const { skipped = [], honestTexts = [] } = options;
  const perScenario = sources.map((source) => ({ name: source.name, ...scenarioCandidates(source) }));
  const scenariosOf = new Map<string, number>();
  for (const { candidates, fixtures } of perScenario) {
    for (const text of new Set([...candidates.keys(), ...fixtures.keys()]))
      scenariosOf.set(text, (scenariosOf.get(text) ?? 0) + 1);
  }
  // Prose and code lines shared by two scenarios are boilerplate; names, paths and values shared by a
  // few are still the benchmark's own (two scenarios writing /app/report.json), so they stay.
  const specific = (text: string, kind: FingerprintKind) => {
    const count = scenariosOf.get(text) ?? 0;
    return count === 1 || (sharedKinds.has(kind) && count <= fingerprintLimits.maxScenariosPerSharedFingerprint);
  };
  const fingerprints: Fingerprint[] = [];
  for (const { name, candidates, fixtures } of perScenario) {
    for (const [text, candidate] of candidates)
      if (specific(text, candidate.kind))
        fingerprints.push({ kind: candidate.kind, scenario: name, text, display: candidate.display });
    const sampled = [...fixtures]
      .filter(([text]) => specific(text, 'fixture-value') && !candidates.has(text))
      .map(([text, original]) => ({ text, original, key: sampleKey(text) }))
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .slice(0, fingerprintLimits.maxFixtureValuesPerScenario);
    for (const { text, original } of sampled)
      fingerprints.push({ kind: 'fixture-value', scenario: name, text, display: display(original) });
  }
  const result: ScenarioFingerprints = {
    version: 1,
    digest: createHash('sha256').update(sourcesDigest(sources)).update(honestTexts.join('\0')).digest('hex'),
    scenarios: sources.map((source) => source.name).sort(),
    skipped: [...skipped].sort((a, b) => (a.name < b.name ? -1 : 1)),
    fingerprints: fingerprints.sort(byPosition),
  };
  if (honestTexts.length === 0) return result;
  const honest = indexFingerprints(result);
  const generic = new Set(
    honestTexts.flatMap((text) => findFingerprints(honest, wordTokens(text)).map((hit) => hit.fingerprint.text)),
  );
  return { ...result, fingerprints: result.fingerprints.filter((fingerprint) => !generic.has(fingerprint.text)) };
}

export async function buildScenarioFingerprints(
  scenariosDir: string = defaultScenariosDir,
): Promise<ScenarioFingerprints> {
  const { sources, skipped } = await readAllScenarioSources(scenariosDir);
  return fingerprintsFromSources(sources, { skipped, honestTexts: await readHonestReferenceTexts() });
}

/** Reads a cached fingerprint set (JSON) back, checked; throws a readable error when it is not one. */
export function parseScenarioFingerprints(json: string): ScenarioFingerprints {
  const parsed = scenarioFingerprintsSchema.safeParse(JSON.parse(json));
  if (!parsed.success)
    throw new Error(
      `not a scenario fingerprint set: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`,
    );
  return parsed.data;
}
