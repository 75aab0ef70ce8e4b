// How a simulated model acts as a tool-using agent on a competition scenario. Stateless: the whole
// decision comes from the conversation (attempt markers in earlier tool calls), the model's
// competence profile and the seed.
import type { ModelEntry } from '../gateway/catalog/allowlist.ts';
import { attemptCommand, findAttemptMarks, type AttemptKind, type AttemptMark } from './attempt-command.ts';
import { unitFromParts } from './deterministic-random.ts';
import { contentText, type ChatMessage, type ChatRequest } from './request-schema.ts';
import { recognizeScenario, type SimScenario } from './scenario-recognition.ts';
import { findShellTool } from './shell-tool.ts';

export const confidentFinish =
  'The task is complete. I ran a script that produces the required outputs, and it finished without errors.';
export const unsureFinish =
  'I could not verify that the task is complete. My attempt may have missed some of the requirements.';

export type AgentReply =
  | { kind: 'text'; content: string }
  | {
      kind: 'tool_call';
      toolName: string;
      argumentsText: string;
      /** 'none' for the realistic fleet's exploratory and checking steps. */
      attempt: AttemptKind | 'none';
      malformed: boolean;
      /** Visible text sent with the call (the realistic fleet's answers). */
      content?: string;
    };

export interface AgentTurnInput {
  request: Pick<ChatRequest, 'messages' | 'tools' | 'tool_choice'>;
  model: ModelEntry;
  scenarios: readonly SimScenario[];
  seed: number;
  /** Fixes the wording of plain-chat replies (a hash of the request). */
  requestKey: string;
  /** Share of the model's competence left by drift (simfleet/model-drift.ts); 1 when it does not drift. */
  competenceScale?: number;
}

/** Chance that this model solves this scenario: base × difficulty × category, clamped to [0, 1]. */
export function solveProbability(model: ModelEntry, scenario: Pick<SimScenario, 'difficulty' | 'category'>): number {
  const { base, byDifficulty, byCategory } = model.sim.competence;
  const p = base * byDifficulty[scenario.difficulty] * (byCategory[scenario.category] ?? 1);
  return Math.min(1, Math.max(0, p));
}

/**
 * Decided once per (seed, model, scenario): every turn of a conversation agrees. A drifting model
 * (competenceScale < 1) solves the same draws a little less often: the roll is the same, the bar lower.
 */
export function modelSolves(seed: number, model: ModelEntry, scenario: SimScenario, competenceScale = 1): boolean {
  return unitFromParts('solve', seed, model.id, scenario.name) < solveProbability(model, scenario) * competenceScale;
}

/** What a failing model tries instead: the partial solution (half the time, when there is one) or a wrong one. */
export function failedAttemptKind(seed: number, model: ModelEntry, scenario: SimScenario): AttemptKind {
  if (scenario.partialScript === undefined) return 'wrong';
  return unitFromParts('partial', seed, model.id, scenario.name) < 0.5 ? 'partial' : 'wrong';
}

/** A failing model sometimes garbles its tool-call JSON: probability (1 - p) × 0.3. */
export function emitsMalformedArguments(seed: number, model: ModelEntry, scenario: SimScenario): boolean {
  return unitFromParts('malformed', seed, model.id, scenario.name) < (1 - solveProbability(model, scenario)) * 0.3;
}

function assistantMarks(messages: readonly ChatMessage[]): AttemptMark[] {
  const marks: AttemptMark[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    marks.push(...findAttemptMarks(contentText(message.content)));
    for (const call of message.tool_calls ?? []) marks.push(...findAttemptMarks(call.function.arguments));
  }
  return marks;
}

/** JSON that is plainly broken the way models break it: raw newlines in a string, no closing brace. */
function malformedArguments(command: string): string {
  return `{"command": "${command.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user') return contentText(message.content);
  }
  return '';
}

/** Deterministic short reply for conversations that are not a scenario. */
export function plainChatReply(modelId: string, messages: readonly ChatMessage[], requestKey: string): string {
  const asked = lastUserText(messages).replace(/\s+/g, ' ').trim();
  const quoted = asked.length > 80 ? `${asked.slice(0, 77)}...` : asked;
  return `[simulated ${modelId}] This answer comes from the trl-sim-fleet simulator, not a real model. You wrote: "${quoted}". (reference ${requestKey.slice(0, 8)})`;
}

export function decideAgentTurn({
  request,
  model,
  scenarios,
  seed,
  requestKey,
  competenceScale = 1,
}: AgentTurnInput): AgentReply {
  const scenario = recognizeScenario(request.messages, scenarios);
  if (!scenario) return { kind: 'text', content: plainChatReply(model.id, request.messages, requestKey) };

  const marks = assistantMarks(request.messages);
  if (marks.some((mark) => mark.attempt === 'solve')) return { kind: 'text', content: confidentFinish };
  if (marks.some((mark) => mark.model === model.id)) return { kind: 'text', content: unsureFinish };

  const solves = modelSolves(seed, model, scenario, competenceScale);
  const attempt = solves ? 'solve' : failedAttemptKind(seed, model, scenario);
  const command = attemptCommand({ scenario, model: model.id, attempt, afterFailedAttempt: marks.length > 0 });
  const toolName = findShellTool(request);
  if (toolName === undefined) {
    return {
      kind: 'text',
      content: `[simulated ${model.id}] I would run these commands in /app to do the task:\n\n\`\`\`bash\n${command}\n\`\`\``,
    };
  }
  const malformed = !solves && emitsMalformedArguments(seed, model, scenario);
  return {
    kind: 'tool_call',
    toolName,
    argumentsText: malformed ? malformedArguments(command) : JSON.stringify({ command }),
    attempt,
    malformed,
  };
}
