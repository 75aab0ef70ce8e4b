// Provenance at run time. Every model answer the gateway settles is fingerprinted (text as
// overlapping runs of words, each tool call as its name and canonical arguments); every answer the
// agent receives is measured against them, words and actions apart (contracts/provenance.ts): a
// word counts as covered when some run of `shingleWords` words around it appears in a model
// answer; a tool call (an action) when a model produced the same call (name and canonical
// arguments), or when one model answer's text holds its name and every argument value (a policy
// may turn a model's written action into a call). Selecting, truncating, combining and reordering
// model output keeps both near 1; text or actions the policy wrote itself do not. Memory is bounded: the most recent
// answers are kept up to
// `windowChars`, older ones are forgotten (an answer is normally used in the turn that asked it).
import { canonicalJson } from '../catalog/canonical-json.ts';
import type { ProvenanceSummary } from '../../contracts/provenance.ts';
import { answerParts, messageParts, type MessageParts } from './answer-parts.ts';

export const shingleWords = 5;
const defaultWindowChars = 4 * 1024 * 1024;
const maxUncoveredSamples = 3;
const sampleChars = 160;

const wordsOf = (text: string): string[] => text.split(/\s+/).filter((word) => word.length > 0);

/** Two 32-bit FNV-1a hashes folded into one safe integer: a Set key without keeping the text. */
function hashText(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a * 0x200000 + (b & 0x1fffff);
}

/** A tool call's identity: name and arguments as canonical JSON (the raw text when it is not JSON, or too deep to
 * fold). */
function toolCallFingerprint(call: { name: string; arguments: string }): string {
  let args = call.arguments.trim();
  try {
    args = canonicalJson(JSON.parse(args));
  } catch {
    // Not JSON (or nested past the stack): compared as written.
  }
  return `${call.name}\u0000${args}`;
}

interface IndexedAnswer {
  chars: number;
  joined: string;
  /** The answer's text as it came (for actions written in text). */
  text: string;
  shingles: number[];
  toolCalls: string[];
}

// A tool call covered by text must have at most this many argument values to look for: a call
// built with thousands of values must match a model's tool call exactly (bounded work per call).
const maxTextCoveredLeaves = 64;

/** The argument values of a call, as text to find in a model's answer; undefined when there are too many. */
function argumentLeaves(argumentsText: string): string[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsText);
  } catch {
    return argumentsText.trim() === '' ? [] : [argumentsText.trim()];
  }
  const leaves: string[] = [];
  const stack: unknown[] = [parsed];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...value);
    else if (value !== null && typeof value === 'object') stack.push(...Object.values(value));
    else if (typeof value === 'string') {
      if (value.trim() !== '') leaves.push(value);
    } else if (value !== null && value !== undefined) leaves.push(String(value));
    if (leaves.length > maxTextCoveredLeaves || stack.length > 4 * maxTextCoveredLeaves) return undefined;
  }
  return leaves;
}

/** A value as a model may have written it in text: as is, or JSON-escaped inside a string. */
function textHolds(text: string, value: string): boolean {
  if (text.includes(value)) return true;
  const escaped = JSON.stringify(value).slice(1, -1);
  return escaped !== value && text.includes(escaped);
}

/** How many received answers may wait for open calls before the oldest is checked without them. */
const maxDeferredAnswers = 64;

export class ProvenanceTracker {
  private readonly answers: IndexedAnswer[] = [];
  private readonly shingles = new Map<number, number>();
  private readonly toolCalls = new Map<string, number>();
  private windowUsed = 0;
  private units = 0;
  private coveredUnits = 0;
  private actions = 0;
  private coveredActions = 0;
  private turns = 0;
  private readonly uncovered: string[] = [];
  /** Answers the agent received while model calls were still open, checked once those calls are booked. */
  private readonly deferred: unknown[] = [];

  constructor(private readonly windowChars = defaultWindowChars) {}

  /** A model response as the gateway settled it (a completion, or a stream's chunks). */
  addModelResponse(response: unknown): void {
    for (const answer of answerParts(response)) this.addAnswer(answer);
  }

  /**
   * One answer the agent received from the policy. With model calls still open (`callsOpen`), a
   * policy may already have passed the agent part of a stream whose answer is fingerprinted only when
   * the gateway books the call (an answer cut when the episode ends is booked then): the check waits
   * for `settle()`, which the policy run calls when no call is open, and `summary()` calls last.
   */
  checkReceived(message: unknown, callsOpen = false): void {
    if (callsOpen) {
      // Bounded: past the cap the oldest is checked now, against what is known.
      if (this.deferred.length >= maxDeferredAnswers) this.checkNow(this.deferred.shift());
      this.deferred.push(message);
      return;
    }
    this.checkNow(message);
  }

  /** Checks the answers that waited for open calls (every call is booked now). */
  settle(): void {
    for (const message of this.deferred.splice(0)) this.checkNow(message);
  }

  private checkNow(message: unknown): void {
    const parts = messageParts(message);
    this.turns += 1;
    this.checkText(parts.text);
    for (const call of parts.toolCalls) {
      this.actions += 1;
      if (this.toolCalls.has(toolCallFingerprint(call)) || this.writtenByAModel(call)) this.coveredActions += 1;
      else this.sample(`tool call ${call.name}(${call.arguments})`);
    }
  }

  /** One model answer's text holds the call: its name and every argument value. */
  private writtenByAModel(call: { name: string; arguments: string }): boolean {
    if (call.name === '') return false;
    const leaves = argumentLeaves(call.arguments);
    if (leaves === undefined) return false;
    return this.answers.some(
      (answer) => answer.text.includes(call.name) && leaves.every((leaf) => textHolds(answer.text, leaf)),
    );
  }

  summary(): ProvenanceSummary {
    this.settle();
    return {
      coverage: this.units === 0 ? 1 : Math.round((this.coveredUnits / this.units) * 1e4) / 1e4,
      units: this.units,
      coveredUnits: this.coveredUnits,
      actionCoverage: this.actions === 0 ? 1 : Math.round((this.coveredActions / this.actions) * 1e4) / 1e4,
      actions: this.actions,
      coveredActions: this.coveredActions,
      turns: this.turns,
      uncovered: [...this.uncovered],
    };
  }

  private addAnswer(answer: MessageParts): void {
    const words = wordsOf(answer.text);
    const shingles: number[] = [];
    for (let i = 0; i + shingleWords <= words.length; i++)
      shingles.push(hashText(words.slice(i, i + shingleWords).join(' ')));
    const indexed: IndexedAnswer = {
      chars: answer.text.length + answer.toolCalls.reduce((sum, call) => sum + call.arguments.length, 0),
      joined: words.join(' '),
      text: answer.text,
      shingles,
      toolCalls: answer.toolCalls.map(toolCallFingerprint),
    };
    for (const key of indexed.shingles) this.shingles.set(key, (this.shingles.get(key) ?? 0) + 1);
    for (const key of indexed.toolCalls) this.toolCalls.set(key, (this.toolCalls.get(key) ?? 0) + 1);
    this.answers.push(indexed);
    this.windowUsed += indexed.chars;
    while (this.windowUsed > this.windowChars && this.answers.length > 1) this.forget(this.answers.shift()!);
  }

  private forget(answer: IndexedAnswer): void {
    this.windowUsed -= answer.chars;
    const drop = <K>(map: Map<K, number>, key: K) => {
      const left = (map.get(key) ?? 0) - 1;
      if (left > 0) map.set(key, left);
      else map.delete(key);
    };
    for (const key of answer.shingles) drop(this.shingles, key);
    for (const key of answer.toolCalls) drop(this.toolCalls, key);
  }

  private checkText(text: string): void {
    const words = wordsOf(text);
    if (words.length === 0) return;
    this.units += words.length;
    if (words.length < shingleWords) {
      // Too short for a run of words: covered when some answer holds it whole.
      const joined = words.join(' ');
      if (this.answers.some((answer) => answer.joined.includes(joined))) this.coveredUnits += words.length;
      else this.sample(joined);
      return;
    }
    const covered = new Uint8Array(words.length);
    for (let i = 0; i + shingleWords <= words.length; i++) {
      if (this.shingles.has(hashText(words.slice(i, i + shingleWords).join(' ')))) covered.fill(1, i, i + shingleWords);
    }
    let count = 0;
    let firstGap = -1;
    for (let i = 0; i < words.length; i++) {
      if (covered[i]) count += 1;
      else if (firstGap < 0) firstGap = i;
    }
    this.coveredUnits += count;
    if (firstGap >= 0) {
      let end = firstGap;
      while (end < words.length && !covered[end]) end += 1;
      this.sample(words.slice(firstGap, end).join(' '));
    }
  }

  private sample(text: string): void {
    if (this.uncovered.length < maxUncoveredSamples)
      this.uncovered.push(text.length > sampleChars ? `${text.slice(0, sampleChars)}…` : text);
  }
}
