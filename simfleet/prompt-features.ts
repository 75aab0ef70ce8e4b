// What the realistic fleet reads from a request before it decides whether the model solves the task:
// is the instruction intact, were tool results cut, is there planning / verification advice, does
// the prompt carry hidden scenario content (coaching), which advisers left notes. Pure functions of the
// request and the scenario; simfleet/solve-chance.ts turns them into a chance.
import { contentText, type ChatMessage } from './request-schema.ts';
import type { SimScenario } from './scenario-recognition.ts';
import { normaliseWhitespace } from './normalise-whitespace.ts';

export interface AdviserNote {
  model: string;
  /** Whether the adviser's own attempt at this scenario would have solved it. */
  sound: boolean;
}

export interface PromptFeatures {
  /** The whole instruction.md is in a user message (whitespace aside). */
  instructionIntact: boolean;
  toolResults: number;
  /** Tool results that were cut (a truncation mark) or dropped (empty). */
  toolResultsCut: number;
  planningAdvice: boolean;
  verificationAdvice: boolean;
  /** Hidden scenario content known to the fleet (solution lines, expected values). */
  hiddenLines: number;
  /** How many of them the guidance text (system, user, SKILL.md) holds; one alone is chance, not coaching. */
  hiddenLinesPresent: number;
  adviserNotes: AdviserNote[];
}

const truncationMarks = [
  /\[(?:output )?truncated\b/i,
  /\((?:output )?truncated\b/i,
  /<truncated\b/i,
  /\btruncated (?:to|after) \d+/i,
  /\b\d+ (?:characters|chars|lines|bytes|tokens) (?:omitted|removed|elided|cut)\b/i,
  /\[\.\.\. ?(?:omitted|elided|cut)/i,
  /\boutput (?:was )?(?:cut|shortened)\b/i,
];

const planningPatterns = [
  /\bplan (?:in|your|the|first|before|briefly)\b/i,
  /\b(?:make|write|start with) a (?:short |brief )?plan\b/i,
  /\bstep by step\b/i,
  /\bone (?:change|step|thing) at a time\b/i,
  /\bsmall,? checked steps\b/i,
  /\bread (?:the )?(?:instruction|task|files?)[^.\n]{0,40}\b(?:first|before)\b/i,
  /\bidentify what kind of task\b/i,
];

const verificationPatterns = [
  /\b(?:run|re-?run) (?:the |its |your )?(?:tests?|test suite|checks?)\b/i,
  /\bverify (?:the|your|that|each|every|it)\b/i,
  /\b(?:check|confirm)(?:ing)? (?:that )?(?:the |every |each |its )?(?:outputs?|results?|files?)\b/i,
  /\bbefore (?:you )?(?:finish|stop|declar|say)/i,
  /\bprint it back\b/i,
  /\brun what you changed\b/i,
];

/** The marker an adviser note carries in the realistic fleet. */
export const adviceMarkerPattern = /\[trl-sim-advice model=([a-z0-9][a-z0-9._-]*) sound=(yes|no)\]/g;

export function adviceMarker(model: string, sound: boolean): string {
  return `[trl-sim-advice model=${model} sound=${sound ? 'yes' : 'no'}]`;
}

/** Tool-call ids whose command read the pack's SKILL.md: their results are guidance the agent passed on. */
function skillReadIds(messages: readonly ChatMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) if (call.function.arguments.includes('SKILL.md')) ids.add(call.id);
  }
  return ids;
}

/** The text a policy or pack controls: system / developer / user messages and the SKILL.md the agent read. */
export function guidanceText(messages: readonly ChatMessage[]): string {
  const skillIds = skillReadIds(messages);
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer' || message.role === 'user')
      parts.push(contentText(message.content));
    else if (message.role === 'tool' && skillIds.has(message.tool_call_id)) parts.push(contentText(message.content));
  }
  return parts.join('\n');
}

function isCut(text: string): boolean {
  return text.trim() === '' || truncationMarks.some((mark) => mark.test(text));
}

export function readPromptFeatures(
  messages: readonly ChatMessage[],
  scenario: Pick<SimScenario, 'normalisedInstruction' | 'hiddenLines'>,
): PromptFeatures {
  const userTexts = messages.filter((m) => m.role === 'user').map((m) => normaliseWhitespace(contentText(m.content)));
  const instructionIntact = userTexts.some((text) => text.includes(scenario.normalisedInstruction));
  const toolTexts = messages.filter((m) => m.role === 'tool').map((m) => contentText(m.content));
  const guidance = guidanceText(messages);
  const normalisedGuidance = normaliseWhitespace(guidance);
  const hiddenLines = scenario.hiddenLines ?? [];
  const adviserNotes: AdviserNote[] = [];
  for (const message of messages) {
    if (message.role !== 'system' && message.role !== 'user') continue;
    for (const match of contentText(message.content).matchAll(adviceMarkerPattern))
      adviserNotes.push({ model: match[1]!, sound: match[2] === 'yes' });
  }
  return {
    instructionIntact,
    toolResults: toolTexts.length,
    toolResultsCut: toolTexts.filter(isCut).length,
    planningAdvice: planningPatterns.some((pattern) => pattern.test(guidance)),
    verificationAdvice: verificationPatterns.some((pattern) => pattern.test(guidance)),
    hiddenLines: hiddenLines.length,
    hiddenLinesPresent: hiddenLines.filter((line) => normalisedGuidance.includes(line)).length,
    adviserNotes,
  };
}
