// The sim fleet's judge mode: a request whose system prompt starts with the pre-evaluation judge's
// marker and that asks for the judge's schema gets the answer of a competent, deterministic judge
// (judge-heuristics.ts) instead of generic schema-valid JSON. Only the delimited pack data is read:
// the boundary comes from the system prompt, so text outside the real markers is never analysed.
import {
  announcedBoundary,
  judgeMarker,
  judgeSchemaName,
  parseDelimitedFiles,
  parseScenarioDigest,
  type JudgeAnswer,
} from '../screening/judge-protocol.ts';
import { judgeFiles } from './judge-heuristics.ts';
import { contentText, type ChatRequest } from './request-schema.ts';
import type { SimScenario } from './scenario-recognition.ts';

export function isJudgeRequest(request: ChatRequest): boolean {
  const format = request.response_format;
  if (format?.type !== 'json_schema' || format.json_schema.name !== judgeSchemaName) return false;
  return request.messages.some(
    (message) =>
      (message.role === 'system' || message.role === 'developer') &&
      contentText(message.content).startsWith(judgeMarker),
  );
}

function countBy<T extends string>(items: readonly T[]): string {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].map(([item, count]) => (count > 1 ? `${item} ×${count}` : item)).join(', ');
}

/** The simulated judge's answer to a judge request (see isJudgeRequest). */
export function simulatedJudgement(
  request: ChatRequest,
  scenarios: readonly SimScenario[],
  simulatorName: string,
): JudgeAnswer {
  const preface = `Simulated judge (${simulatorName}): transparent pattern heuristics, not a real model review.`;
  const boundary = request.messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => announcedBoundary(contentText(message.content)))
    .find((found) => found !== undefined);
  const userText = request.messages
    .filter((message) => message.role === 'user')
    .map((message) => contentText(message.content))
    .join('\n');
  const files = boundary ? parseDelimitedFiles(userText, boundary) : [];
  if (files.length === 0) {
    // A judge that cannot see the pack must not pass it.
    return {
      flags: [],
      verdict: 'reject',
      summary: `${preface} No delimited pack data was found, so nothing could be checked; rejecting.`,
    };
  }
  // The scenarios the prompt shows beside the pack (what a real judge reads); its own list when it shows none.
  const shown = boundary ? parseScenarioDigest(userText, boundary) : [];
  const flags = shown.length > 0 ? judgeFiles(files, scenarios, shown) : judgeFiles(files, scenarios);
  const findings =
    flags.length === 0
      ? 'no hard-coding, gaming or injection patterns found'
      : `${flags.length} flag${flags.length === 1 ? '' : 's'}: ${countBy(flags.map((flag) => flag.type))}`;
  return {
    flags,
    verdict: flags.length > 0 ? 'reject' : 'pass',
    summary: `${preface} Read ${files.length} file${files.length === 1 ? '' : 's'} of delimited pack data; ${findings}.`,
  };
}
