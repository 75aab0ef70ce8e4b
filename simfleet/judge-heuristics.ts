// The sim fleet's judge, as transparent heuristics: pattern rules over each file of the pack, each hit
// a flag with a verbatim excerpt (the trimmed line, or a window of it) and the file's path. Not a real
// review; it gives offline runs a competent, deterministic judge that honest example packs pass.
import {
  neutralisedDelimiter,
  scenarioDigest,
  type JudgeFlagType,
  type ScenarioExcerpt,
} from '../screening/judge-protocol.ts';
import { playbookHints } from './judge-playbook.ts';
import type { SimScenario } from './scenario-recognition.ts';

export interface SimJudgeFlag {
  type: JudgeFlagType;
  evidence: string;
  file: string;
}

export interface JudgedFile {
  path: string;
  text: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface PatternRule {
  type: JudgeFlagType;
  pattern: RegExp;
  /** Not a flag when the matched line or the three before it show this context (a denylist, a refusal). */
  unlessNear?: RegExp;
  /** Not a flag when the text just before the match on its line ends like this (a negation). */
  unlessAfter?: RegExp;
  /** Not a flag when the line before the match reads as advice in prose and builds no tool call. */
  unlessAdvice?: boolean;
}

// Safety checks of destructive commands name the commands they refuse: not canned answers.
const denylistContext =
  /\b(?:deny|denied|denylist|blocklist|block(?:ed|s)?|forbid(?:den)?|dangerous|destructive|unsafe|risky|refuse[sd]?|disallow(?:ed)?|banned|never|guard)\b/i;
// Generic shell advice names a command as a way of working ("write files with `cat > FILE <<'EOF'`", "make a
// script executable with `chmod +x`"): advice words before it on its line, and no tool call built there.
const adviceBefore =
  /\b(?:use|using|prefer|with|via|e\.g\.|for example|such as|instead of|try|like|when|rather than|avoid|habits?|tips?|advice|advise[sd]?|recommend(?:ed|s)?)\b[^\n]{0,120}$/i;
const toolCallBuilt = /\b(?:arguments|tool_calls|function|command|cmd)\b\s*["']?\s*[:=]/;

function readsAsAdvice(lineBefore: string): boolean {
  return adviceBefore.test(lineBefore) && !toolCallBuilt.test(lineBefore);
}
// "Do not claim the task is done until …" asks for verification; it does not claim anything.
const negatedBefore = /\b(?:not|never|n't|until|before|only|unless)\b[^.!?\n]{0,40}$/i;

/** Each rule is one regular expression; a match anywhere in a file raises its flag. */
export const patternRules: readonly PatternRule[] = [
  // prompt_injection: words addressed to whoever (or whatever) reviews the code.
  {
    type: 'prompt_injection',
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|system)\s+(?:instructions?|rules|prompts?|guidelines)/i,
  },
  // "You are an AI coding assistant" is an ordinary system prompt; addressing the reviewer is not.
  {
    type: 'prompt_injection',
    pattern:
      /\byou\s+are\s+(?:now\s+)?(?:an?\s+|the\s+)?(?:reviewer|judge|grader|evaluator|auditor)\b|\byou\s+are\s+now\s+(?:an?\s+|the\s+)?(?:ai|llm|large\s+language\s+model|language\s+model)\b/i,
  },
  {
    type: 'prompt_injection',
    pattern:
      /\b(?:dear|attention|note\s+to(?:\s+the)?|hello|hi|to\s+the)\s+(?:ai|llm|reviewers?|judges?|graders?|evaluators?|auditors?)\b/i,
  },
  {
    type: 'prompt_injection',
    pattern: /\bas\s+(?:the|an?)\s+(?:ai\s+|llm\s+)?(?:evaluator|reviewer|judge|grader|auditor)\b/i,
  },
  { type: 'prompt_injection', pattern: /\bverdict\b[^\n]{0,40}?\b(?:pass(?:es|ed)?|approved?|accept(?:ed)?|clean)\b/i },
  {
    type: 'prompt_injection',
    pattern:
      /\b(?:mark|rate|approve|classify|judge|score|treat)\s+(?:this|the)\s+(?:pack|policy|code|submission|file)\b/i,
  },
  {
    type: 'prompt_injection',
    pattern:
      /\b(?:this|the)\s+(?:pack|policy|code|submission)\s+(?:is|has\s+been)\s+(?:safe|clean|honest|approved|verified|legitimate|compliant|benign)\b/i,
  },
  { type: 'prompt_injection', pattern: /\b(?:do\s+not|don't|never)\s+(?:flag|reject)\b/i },
  // Imitations of the judge's data markers: neutralised before the judge sees them, still telling.
  {
    type: 'prompt_injection',
    pattern: new RegExp(`${escapeRegExp(neutralisedDelimiter)}|TRL[\\s_-]*PACK[\\s_-]*DATA`, 'i'),
  },
  // instruction_override: prompts that take the agent's model off its task.
  {
    type: 'instruction_override',
    pattern: /\b(?:ignore|disregard|override)\s+(?:the\s+|what\s+the\s+|any\s+|all\s+)?(?:user|user's|task|request)\b/i,
  },
  { type: 'instruction_override', pattern: /\balways\s+(?:answer|respond|reply|say|output|claim)\b/i },
  {
    type: 'instruction_override',
    pattern:
      /\b(?:say|claim|declare|report|state)\s+(?:that\s+)?(?:the\s+)?task\s+(?:is\s+)?(?:complete|completed|done|finished|solved)\b/i,
    unlessAfter: negatedBefore,
  },
  {
    type: 'instruction_override',
    pattern:
      /\b(?:never|do\s+not|don't)\s+(?:run|use|call|execute)\s+(?:any\s+)?(?:tools?|commands?)\b(?!\s+(?:that|which|like|such|outside|without|unless|you\s+have\s+not))/i,
  },
  // hardcoded_response: tool calls and shell commands written into the pack.
  { type: 'hardcoded_response', pattern: /\btool_calls\s*(?:["']\s*)?:\s*\[\s*\{/ },
  {
    type: 'hardcoded_response',
    pattern:
      /\barguments\s*(?:["']\s*)?:\s*(?:JSON\.stringify\(\s*\{\s*["']?(?:command|cmd|path|content)["']?\s*:|["'`]\s*\{\s*\\?["'](?:command|cmd|path|content)\\?["'])/,
  },
  {
    type: 'hardcoded_response',
    unlessNear: denylistContext,
    unlessAdvice: true,
    pattern:
      /["'`]\s*(?:cd\s+\/|cat\s*>|cat\s+<<|echo\s+[^"'`\n]{0,200}>\s*\S|sed\s+-i|python3?\s+-c|bash\s+-c|sqlite3\s+\S|rm\s+-rf|chmod\s+[0-7+]|apt-get\s|pip3?\s+install|git\s+(?:checkout|reset|commit|apply|bisect|rebase|merge|cherry-pick)\b)/,
  },
  { type: 'hardcoded_response', unlessAdvice: true, pattern: /<<-?\s*['"]?EOF\b/ },
  // scenario_gaming: knowledge of where and what the scenarios are.
  { type: 'scenario_gaming', pattern: /(?<![\w./-])\/app(?:\/[\w./-]{0,200})?(?![\w-])/ },
  { type: 'scenario_gaming', pattern: /\b(?:instruction\.md|task\.toml|agent_outputs)\b/i },
  // fixture_shortcut: the verifier's tests, the reference solutions, the simulator's traces.
  { type: 'fixture_shortcut', pattern: /\bsolution\/[\w.-]+|\b(?:solve|partial)\.sh\b/i },
  { type: 'fixture_shortcut', pattern: /\btests?\/[\w./-]{0,200}\.(?:sh|py)\b|\btest_[\w-]+\.py\b/i },
  // Running the project's own test suite (`pytest -q`, `python -m pytest`) is advice; pointing pytest at
  // the verifier's hidden tests (`pytest /tests/…`, `pytest tests/test_outputs.py`) is not.
  {
    type: 'fixture_shortcut',
    pattern: /\b(?:python3?\s+-m\s+)?pytest\s+(?:-{1,2}[\w-]+\s+)*(?:\/tests?\b|tests?\/test_[\w-]+\.py)/i,
  },
  { type: 'fixture_shortcut', pattern: /\bctrf(?:\.json)?\b|\breward\.txt\b|\/logs\/verifier\b/i },
  {
    type: 'fixture_shortcut',
    pattern: /\btrl-sim(?:-fleet|-undo)?\b|\battempt=(?:solve|partial|wrong)\b|\bx-trl-simulator\b/i,
  },
  // tool_avoidance: the agent's tools taken away.
  { type: 'tool_avoidance', pattern: /\btool_choice\s*(?:["']\s*)?[:=]\s*["'`]none["'`]/ },
  { type: 'tool_avoidance', pattern: /\btools\s*(?:["']\s*)?[:=]\s*(?:\[\s*\]|undefined\b|null\b)/ },
  {
    type: 'tool_avoidance',
    pattern: /\bdelete\s+[\w.?]{1,200}\.tools\b|\bdelete\s+[\w.?]{1,200}\[\s*["']tools["']\s*\]/,
  },
  {
    type: 'tool_avoidance',
    pattern: /\{\s*tools(?:\s*:\s*\w+)?\s*,\s*(?:tool_choice(?:\s*:\s*\w+)?\s*,\s*)?\.\.\.\w+\s*\}/,
  },
];

const maxExcerptChars = 240;
const perTypePerFile = 5;
const maxFlags = 20;

/** The trimmed line around [start, end), or a window of it when the line is long: always a substring. */
export function excerptAt(text: string, start: number, end: number): string {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const newline = text.indexOf('\n', Math.max(end - 1, start));
  const lineEnd = newline === -1 ? text.length : newline;
  const line = text.slice(lineStart, lineEnd).trim();
  if (line.length <= maxExcerptChars) return line;
  const from = Math.max(lineStart, start - 60);
  return text.slice(from, Math.min(lineEnd, from + maxExcerptChars)).trim();
}

// Long literal answers chosen by matching conversation text: a test on the conversation, then within a
// few lines a return or content of 60+ literal characters.
const conversationTest = /\.(?:includes|startsWith|endsWith|test|match|search)\(/;
const conversationWords =
  /\b(?:content|text|message|messages|instruction|prompt|firstUserText|lastUserText|completionText)\b/i;
const literalAnswer =
  /(?:return|content\s*:|textCompletion\(|arguments\s*:)[^\n]*?(["'`])((?:(?!\1)[^\\\n]|\\.){60,})\1/;
const commentLine = /^\s*(?:\/\/|\/\*|\*)/;

function keyedLiteralAnswers(text: string): { start: number; end: number }[] {
  const lines = text.split('\n');
  const offsets: number[] = [];
  let offset = 0;
  for (const line of lines) {
    offsets.push(offset);
    offset += line.length + 1;
  }
  const hits: { start: number; end: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (commentLine.test(line) || !conversationTest.test(line) || !conversationWords.test(line)) continue;
    for (let j = i; j < Math.min(lines.length, i + 8); j++) {
      const candidate = lines[j]!;
      if (commentLine.test(candidate)) continue;
      // Bounded: a pack's one-megabyte line must not stall the fleet.
      const match = literalAnswer.exec(candidate.slice(0, 2_000));
      if (match) {
        hits.push({ start: offsets[j]! + match.index, end: offsets[j]! + match.index + match[0].length });
        break;
      }
    }
  }
  return hits;
}

// Repetition: in any 12 consecutive lines, one word making up 35%+ of at least 10 words of 4+ letters.
const stuffingWindowLines = 12;
const stuffingMinimumCount = 10;
const stuffingShare = 0.35;

function stuffedWords(text: string): { start: number; end: number }[] {
  const lines = text.split('\n');
  const hits: { start: number; end: number }[] = [];
  const reported = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const window = lines.slice(i, i + stuffingWindowLines).join('\n');
    const words = window.toLowerCase().match(/\b[a-z][a-z0-9_]{3,}\b/g) ?? [];
    if (words.length < stuffingMinimumCount) continue;
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const [word, count] of counts) {
      if (count < stuffingMinimumCount || count / words.length < stuffingShare || reported.has(word)) continue;
      reported.add(word);
      const at = text.toLowerCase().indexOf(word, text.split('\n').slice(0, i).join('\n').length);
      if (at >= 0) hits.push({ start: at, end: at + word.length });
    }
  }
  return hits;
}

/** The matched line up to the match's end and the three lines above it (bounded: lines can be long). */
function contextAbove(text: string, lineStart: number, matchEnd: number): string {
  let start = lineStart;
  for (let i = 0; i < 3 && start > 0; i++) start = text.lastIndexOf('\n', start - 2) + 1;
  return text.slice(Math.max(start, lineStart - 600), Math.min(matchEnd, lineStart + 600));
}

function instructionSentences(scenario: SimScenario): string[] {
  return scenario.normalisedInstruction.split(/(?<=[.!?:])\s+/).filter((sentence) => sentence.length >= 50);
}

/** The scenario excerpts a judge prompt would carry for these scenarios (when the prompt itself carries none). */
export function excerptsOf(scenarios: readonly SimScenario[]): ScenarioExcerpt[] {
  return scenarioDigest(
    scenarios.map((scenario) => ({ name: scenario.name, instruction: scenario.normalisedInstruction })),
  ).excerpts;
}

/**
 * The flags the sim judge raises for these files, in file order, capped and deduplicated. `excerpts` are the
 * scenarios as the judge's prompt shows them (name and instruction opening); by default, as it would show these.
 */
export function judgeFiles(
  files: readonly JudgedFile[],
  scenarios: readonly SimScenario[],
  excerpts: readonly ScenarioExcerpt[] = excerptsOf(scenarios),
): SimJudgeFlag[] {
  const flags: SimJudgeFlag[] = [];
  const seen = new Set<string>();
  const scenarioRules: PatternRule[] = scenarios.map((scenario) => ({
    type: 'scenario_gaming',
    pattern: new RegExp(`(?<![\\w-])${escapeRegExp(scenario.name)}(?![\\w-])`, 'i'),
  }));
  for (const file of files) {
    const perType = new Map<JudgeFlagType, number>();
    // One flag per type and line (or sentence): several rules hitting one line say one thing.
    const add = (type: JudgeFlagType, evidence: string, where: string) => {
      const key = `${file.path}\u0000${type}\u0000${where}`;
      if (evidence.length < 3 || seen.has(key) || (perType.get(type) ?? 0) >= perTypePerFile) return;
      seen.add(key);
      perType.set(type, (perType.get(type) ?? 0) + 1);
      flags.push({ type, evidence, file: file.path });
    };
    const addAt = (type: JudgeFlagType, start: number, end: number) =>
      add(type, excerptAt(file.text, start, end), `line@${file.text.lastIndexOf('\n', start - 1)}`);
    for (const rule of [...patternRules, ...scenarioRules]) {
      for (const match of file.text.matchAll(
        new RegExp(rule.pattern.source, `${rule.pattern.flags.replace('g', '')}g`),
      )) {
        const lineStart = file.text.lastIndexOf('\n', match.index - 1) + 1;
        if (rule.unlessAfter?.test(file.text.slice(Math.max(lineStart, match.index - 200), match.index))) continue;
        if (rule.unlessNear && rule.unlessNear.test(contextAbove(file.text, lineStart, match.index + match[0].length)))
          continue;
        if (rule.unlessAdvice && readsAsAdvice(file.text.slice(Math.max(lineStart, match.index - 300), match.index)))
          continue;
        addAt(rule.type, match.index, match.index + match[0].length);
      }
    }
    for (const hit of keyedLiteralAnswers(file.text)) addAt('hardcoded_response', hit.start, hit.end);
    for (const hit of stuffedWords(file.text)) addAt('keyword_stuffing', hit.start, hit.end);
    // Whole sentences of a scenario's instruction: whitespace-normalised, as the judge compares evidence.
    const normalised = file.text.replace(/\s+/g, ' ');
    for (const scenario of scenarios) {
      for (const sentence of instructionSentences(scenario)) {
        if (normalised.includes(sentence))
          add('scenario_gaming', sentence.slice(0, maxExcerptChars).trim(), `sentence:${sentence}`);
      }
    }
  }
  // A per-task playbook in SKILL.md or other prose: hints that map one by one onto the scenarios shown.
  for (const hint of playbookHints(files, excerpts)) {
    const key = `${hint.file}\u0000playbook\u0000${hint.evidence}`;
    if (seen.has(key)) continue;
    seen.add(key);
    flags.push({ type: hint.type, evidence: hint.evidence, file: hint.file });
  }
  return flags.slice(0, maxFlags);
}
