// The realistic fleet's agent: a trajectory of exploratory commands (list, read, run tests, the odd
// failing guess with a traceback), then the attempt, then checks, then a finish; and the attempt
// succeeds with a chance that depends on what the request carries (prompt-features.ts,
// solve-chance.ts). Stateless like the fast agent: step and attempt markers in earlier tool calls are
// the state, so a conversation resumed by another model (a cascade's climb) continues where it was.
import type { ModelEntry } from '../gateway/catalog/allowlist.ts';
import {
  confidentFinish,
  emitsMalformedArguments,
  failedAttemptKind,
  plainChatReply,
  solveProbability,
  unsureFinish,
  type AgentReply,
} from './agent-behaviour.ts';
import { attemptCommand, findAttemptMarks, type AttemptKind } from './attempt-command.ts';
import { unitFromParts } from './deterministic-random.ts';
import {
  answerText,
  explorationCommand,
  findStepMarks,
  stepMarker,
  verificationCommand,
} from './exploration-command.ts';
import { adviceMarker, readPromptFeatures } from './prompt-features.ts';
import { contentText, type ChatMessage, type ChatRequest } from './request-schema.ts';
import { recognizeScenario, type SimScenario } from './scenario-recognition.ts';
import { findShellTool } from './shell-tool.ts';
import { solveChance, type ChanceBreakdown } from './solve-chance.ts';
import { trajectoryPlan, turnDraws } from './trajectory-calibration.ts';

export interface RealisticTurnInput {
  request: Pick<ChatRequest, 'messages' | 'tools' | 'tool_choice'>;
  model: ModelEntry;
  /** Every model of the fleet, for the chances of advisers whose notes the request carries. */
  models: readonly ModelEntry[];
  scenarios: readonly SimScenario[];
  seed: number;
  requestKey: string;
  competenceScale?: number;
}

type Mark = { model: string; kind: 'step' } | { model: string; kind: 'attempt'; attempt: AttemptKind };

/** The trajectory so far, in order, from the markers in the assistant's tool calls (and texts). */
function trajectoryMarks(messages: readonly ChatMessage[]): Mark[] {
  const marks: Mark[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const texts = [contentText(message.content), ...(message.tool_calls ?? []).map((call) => call.function.arguments)];
    for (const text of texts) {
      for (const step of findStepMarks(text)) marks.push({ model: step.model, kind: 'step' });
      for (const attempt of findAttemptMarks(text))
        marks.push({ model: attempt.model, kind: 'attempt', attempt: attempt.attempt });
    }
  }
  return marks;
}

/** The writer's chance from its profile and the request's features (advisers' chances from theirs). */
export function realisticChance(
  input: Pick<RealisticTurnInput, 'request' | 'model' | 'models' | 'competenceScale'>,
  scenario: SimScenario,
): ChanceBreakdown {
  const features = readPromptFeatures(input.request.messages, scenario);
  const adviserBases = features.adviserNotes.map((note) => {
    const adviser = input.models.find((m) => m.id === note.model);
    return adviser ? solveProbability(adviser, scenario) : 0;
  });
  return solveChance(solveProbability(input.model, scenario) * (input.competenceScale ?? 1), features, adviserBases);
}

/** An adviser's note (a request without tools about a scenario): advice, never the solution. */
function adviserNote(model: ModelEntry, scenario: SimScenario, seed: number): string {
  const sound = unitFromParts('solve', seed, model.id, scenario.name) < solveProbability(model, scenario);
  const outputs = scenario.agentOutputs.join(', ') || 'the outputs the task names';
  const advice = sound
    ? `Re-read the requirements and check ${outputs} against each of them; handle the edge cases the task mentions before finishing.`
    : `You seem close; consider finishing once ${outputs} exist.`;
  return `[simulated ${model.id}] ${advice} ${adviceMarker(model.id, sound)}`;
}

function toolCall(
  toolName: string,
  command: string,
  content: string,
  attempt?: AttemptKind,
  malformed = false,
): AgentReply {
  const argumentsText = malformed
    ? `{"command": "${command.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
    : JSON.stringify({ command });
  return { kind: 'tool_call', toolName, argumentsText, attempt: attempt ?? 'none', malformed, content };
}

export function decideRealisticTurn(input: RealisticTurnInput): AgentReply {
  const { request, model, scenarios, seed, requestKey } = input;
  const scenario = recognizeScenario(request.messages, scenarios);
  if (!scenario) return { kind: 'text', content: plainChatReply(model.id, request.messages, requestKey) };
  const toolName = findShellTool(request);
  if (toolName === undefined) return { kind: 'text', content: adviserNote(model, scenario, seed) };

  const marks = trajectoryMarks(request.messages);
  const turn = marks.length;
  const plan = trajectoryPlan(seed, model.id, scenario);
  const draws = turnDraws(seed, model.id, scenario.name, turn);
  let lastAttempt = -1;
  marks.forEach((mark, index) => {
    if (mark.kind === 'attempt') lastAttempt = index;
  });
  const checksSince = lastAttempt < 0 ? 0 : turn - lastAttempt - 1;
  const solved = marks.some((mark) => mark.kind === 'attempt' && mark.attempt === 'solve');
  const ownAttempt = marks.some((mark) => mark.kind === 'attempt' && mark.model === model.id);

  if (solved || ownAttempt) {
    if (checksSince >= plan.verifyTurns) return { kind: 'text', content: solved ? confidentFinish : unsureFinish };
    // After a failed attempt the checks fail more often: the outputs are not right.
    const checkDraws = solved ? { ...draws, fails: false } : { ...draws, fails: draws.fails || draws.pick < 0.5 };
    const command = `${verificationCommand(scenario, checkDraws)} ${stepMarker(model.id, 'verify')}`;
    return toolCall(toolName, command, answerText('verify', turn, draws.answerTokens));
  }
  if (turn < plan.exploreTurns) {
    const command = `${explorationCommand(scenario, turn, draws)} ${stepMarker(model.id, 'explore')}`;
    return toolCall(toolName, command, answerText('explore', turn, draws.answerTokens));
  }
  const chance = realisticChance(input, scenario).chance;
  const solves = unitFromParts('solve', seed, model.id, scenario.name) < chance;
  const attempt = solves ? 'solve' : failedAttemptKind(seed, model, scenario);
  const afterFailedAttempt = marks.some((mark) => mark.kind === 'attempt');
  const command = attemptCommand({ scenario, model: model.id, attempt, afterFailedAttempt });
  const malformed = !solves && emitsMalformedArguments(seed, model, scenario);
  return toolCall(toolName, command, answerText('attempt', turn, draws.answerTokens), attempt, malformed);
}
