// The run-time check of DESIGN invariant 10 (contracts/injection.ts): every call a policy sends
// upstream is read whole — every message, the system prompt, `tools` (names, descriptions,
// parameter schemas, property names), `response_format` and any other field, keys included — and
// the scenario's hidden pieces found in it are compared with what the policy was given: everything
// the agent sent it (instruction, tool results, its own tool schemas) and everything a model
// answered in this episode. A piece found in a call and given by neither was carried in. Past
// `minInjectedPieces` distinct pieces the episode is over: that call and every later one is refused
// with `injected_scenario_content`, and `onViolation` stops the agent.
//
// Cost: one pass over the request (phrase-index.ts), memory one flag per hidden piece plus bounded
// evidence; it runs on the gateway's event loop, before the reservation (bench/gateway-overhead.ts).
import {
  injectedScenarioContent,
  maxInjectionEvidence,
  minInjectedPieces,
  type InjectionEvidence,
  type InjectionSummary,
} from '../../contracts/injection.ts';
import { GatewayError } from '../gateway-error.ts';
import { answerParts } from '../provenance/answer-parts.ts';
import { indexPhrases, scanPhrases, type PhraseIndex } from './phrase-index.ts';

/** One piece of a scenario's hidden content, its words in the screening normal form. */
export interface HiddenPiece {
  /** Normal form: lower-case words of letters and digits joined by single spaces. */
  text: string;
  kind: string;
  scenario: string;
  /** The original wording, for the evidence. */
  display: string;
}

/** What the gateway asks of a request check: a refusal, or nothing. */
export interface RequestGuard {
  check(body: Record<string, unknown>, callId: string): GatewayError | undefined;
}

/** Nodes of a request walked at most: a request is bounded by the HTTP layer; this bounds a body built in process. */
const maxNodes = 1_000_000;
const maxDisplayChars = 120;

type Visit = (text: string, field: () => string) => void;

interface WalkNode {
  value: unknown;
  parent: WalkNode | undefined;
  segment: string;
}

/** Segments kept of a path deeper than this: the first and the last ones. */
const maxPathSegments = 24;
/** A key can be any length: each is cut to this in a path. */
const maxSegmentChars = 60;

function pathOf(node: WalkNode, suffix = ''): string {
  const segments: string[] = [];
  for (let at: WalkNode | undefined = node; at; at = at.parent)
    segments.push(at.segment.length > maxSegmentChars ? `${at.segment.slice(0, maxSegmentChars - 1)}…` : at.segment);
  segments.reverse();
  const shown =
    segments.length > maxPathSegments
      ? [...segments.slice(0, maxPathSegments / 2), '…', ...segments.slice(-maxPathSegments / 2)]
      : segments;
  return (shown.join('') || '(body)') + suffix;
}

/**
 * Every string of a JSON value, object keys included, with its path built only when asked (for
 * the evidence). Iterative, so a deeply nested body cannot overflow the stack, and bounded.
 */
export function walkStrings(value: unknown, visit: Visit): void {
  const stack: WalkNode[] = [{ value, parent: undefined, segment: '' }];
  let nodes = 0;
  while (stack.length > 0 && nodes++ < maxNodes) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === 'string') {
      visit(current, () => pathOf(node));
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        stack.push({ value: current[index], parent: node, segment: `[${index}]` });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, inner] = entries[index]!;
        const segment = /^[A-Za-z_$][\w$]*$/.test(key) ? `${node.parent ? '.' : ''}${key}` : `[${JSON.stringify(key)}]`;
        const child = { value: inner, parent: node, segment };
        visit(key, () => pathOf(child, ' (key)'));
        stack.push(child);
      }
    }
  }
}

export class InjectionGuard implements RequestGuard {
  private readonly index: PhraseIndex;
  /** One flag per piece: 1 given (sent by the agent or a model), 2 carried in by the policy. */
  private readonly state: Uint8Array;
  private injected = 0;
  private checkedCalls = 0;
  private readonly evidence: InjectionEvidence[] = [];
  private violation: GatewayError | undefined;

  constructor(
    private readonly pieces: readonly HiddenPiece[],
    private readonly options: {
      onViolation?: (summary: InjectionSummary) => void;
      /** Record only, never refuse (calibration runs and the corpus bench: the calls go on, the summary counts). */
      observeOnly?: boolean;
    } = {},
  ) {
    this.index = indexPhrases(pieces);
    this.state = new Uint8Array(pieces.length);
  }

  /** The agent's request to the policy, whole: every piece in it is the agent's to give. */
  noteAgentRequest(body: unknown): void {
    walkStrings(body, (text) => this.markGiven(text));
  }

  /** A model's answer (a completion or a stream's chunks): what a model wrote, the policy may pass on. */
  noteModelAnswer(response: unknown): void {
    for (const answer of answerParts(response)) {
      this.markGiven(answer.text);
      for (const call of answer.toolCalls) {
        this.markGiven(call.name);
        this.markGiven(call.arguments);
      }
    }
  }

  check(body: Record<string, unknown>, callId: string): GatewayError | undefined {
    if (this.violation) return this.violation;
    this.checkedCalls += 1;
    if (this.pieces.length === 0) return undefined;
    walkStrings(body, (text, field) =>
      scanPhrases(this.index, text, (position) => {
        if (this.state[position] !== 0) return;
        this.state[position] = 2;
        this.injected += 1;
        const piece = this.pieces[position]!;
        if (this.evidence.length < maxInjectionEvidence)
          this.evidence.push({
            callId,
            field: field(),
            kind: piece.kind,
            scenario: piece.scenario,
            display:
              piece.display.length > maxDisplayChars
                ? `${piece.display.slice(0, maxDisplayChars - 1)}…`
                : piece.display,
          });
      }),
    );
    if (this.injected < minInjectedPieces || this.options.observeOnly) return undefined;
    const summary = this.summary();
    const first = summary.evidence[0]!;
    this.violation = new GatewayError(
      403,
      injectedScenarioContent,
      `refused: this call carries the scenario's hidden content that neither the agent nor a model gave the policy (${this.injected} pieces so far, e.g. ${first.kind} "${first.display}" in ${first.field}); the scenario is over`,
      false,
    );
    this.options.onViolation?.(summary);
    return this.violation;
  }

  summary(): InjectionSummary {
    return {
      checkedCalls: this.checkedCalls,
      hiddenPieces: this.pieces.length,
      injectedPieces: this.injected,
      evidence: this.evidence.map((item) => ({ ...item })),
    };
  }

  private markGiven(text: string): void {
    if (text === '') return;
    scanPhrases(this.index, text, (position) => {
      if (this.state[position] === 0) this.state[position] = 1;
    });
  }
}
