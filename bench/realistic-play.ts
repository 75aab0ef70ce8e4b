// Whole conversations played in-process against the realistic sim fleet's agent (simfleet/realistic-agent.ts):
// no Docker, no Hermes, pretend tool results. Shared by bench/realistic-fleet-seeds.ts (prompt effects with
// statistical power) and bench/seat-realistic.ts (the seat's figures on the realistic fleet).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../common/data-layout.ts';
import { loadAllowlist } from '../gateway/catalog/allowlist.ts';
import { confidentFinish, solveProbability } from '../simfleet/agent-behaviour.ts';
import type { AttemptKind } from '../simfleet/attempt-command.ts';
import { unitFromParts } from '../simfleet/deterministic-random.ts';
import { adviceMarker } from '../simfleet/prompt-features.ts';
import { decideRealisticTurn } from '../simfleet/realistic-agent.ts';
import type { ChatMessage, ToolDefinition } from '../simfleet/request-schema.ts';
import type { SimScenario } from '../simfleet/scenario-recognition.ts';

export interface Variant {
  name: string;
  writer: string;
  skill: string;
  /** Extra system text for a scenario (coaching). */
  system?: (scenario: SimScenario) => string;
  cutToolResults?: boolean;
  /** Only the instruction's first 400 characters reach the model. */
  cutInstruction?: boolean;
  advisers?: string[];
}

export interface PlayResult {
  solved: boolean;
  turns: number;
  /** The last attempt the conversation made (none: it never attempted). */
  attempt: AttemptKind | 'none';
}

const allowlist = loadAllowlist();
const opening = JSON.parse(readFileSync(path.join(repoRoot, 'agents', 'hermes-opening.json'), 'utf8')) as {
  system: string;
  tools: ToolDefinition[];
};

export const readSkill = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');

function model(id: string) {
  const found = allowlist.models.find((m) => m.id === id);
  if (!found) throw new Error(`${id} is not in the allowlist`);
  return found;
}

/** A pretend tool result: what a read prints is long, a failed guess short. */
function pretendOutput(command: string): string {
  if (command.includes('cat /workspace/SKILL.md')) return '';
  const failed = /_helpers as h|\.orig/.test(command);
  return failed ? 'Traceback (most recent call last):\n  ...\nModuleNotFoundError' : 'line of output\n'.repeat(100);
}

const attemptPattern = /attempt=(solve|partial|wrong)\b/g;

/** One scenario, one seed: Hermes's opening, the variant's SKILL.md and prompt, up to 60 turns. */
export function play(
  variant: Variant,
  scenario: SimScenario,
  seed: number,
  scenarios: readonly SimScenario[],
): PlayResult {
  const instruction = variant.cutInstruction
    ? scenario.normalisedInstruction.slice(0, 400)
    : scenario.normalisedInstruction;
  let messages: ChatMessage[] = [
    { role: 'system', content: opening.system },
    { role: 'user', content: instruction },
  ];
  let attempt: PlayResult['attempt'] = 'none';
  const extra = variant.system?.(scenario);
  for (let turn = 1; turn <= 60; turn++) {
    let sent = extra ? [...messages, { role: 'system' as const, content: extra }] : messages;
    if (variant.advisers && turn % 2 === 0 && messages.some((m) => m.role === 'tool')) {
      const notes = variant.advisers.map((id) => {
        const sound = unitFromParts('solve', seed, id, scenario.name) < solveProbability(model(id), scenario);
        return `Adviser (${id}): … ${adviceMarker(id, sound)}`;
      });
      sent = [...sent, { role: 'system', content: notes.join('\n\n') }];
    }
    const reply = decideRealisticTurn({
      request: { messages: sent, tools: opening.tools },
      model: model(variant.writer),
      models: allowlist.models,
      scenarios,
      seed,
      requestKey: 'bench',
    });
    if (reply.kind === 'text') return { solved: reply.content === confidentFinish, turns: turn, attempt };
    const command = (JSON.parse(reply.malformed ? '{"command":""}' : reply.argumentsText) as { command: string })
      .command;
    for (const match of command.matchAll(attemptPattern)) attempt = match[1] as AttemptKind;
    let output = command.includes('SKILL.md') ? variant.skill : pretendOutput(command);
    if (variant.cutToolResults && output.length > 600)
      output = `${output.slice(0, 600)}\n[output truncated: ${output.length - 600} characters omitted]`;
    const id = `call_${turn}`;
    messages = [
      ...messages,
      {
        role: 'assistant',
        content: reply.content ?? null,
        tool_calls: [{ id, type: 'function', function: { name: reply.toolName, arguments: reply.argumentsText } }],
      },
      { role: 'tool', tool_call_id: id, content: output },
    ];
  }
  return { solved: false, turns: 60, attempt };
}
