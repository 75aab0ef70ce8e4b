// The realistic fleet's prompt effects with statistical power: whole conversations played in-process
// against simfleet/realistic-agent.ts (no Docker, no Hermes: pretend tool results), every scenario × N
// seeds, for policies that differ only in what they send. Complements bench/realistic-fleet.ts, whose
// real evaluations are one seed each.
//   node --import tsx bench/realistic-fleet-seeds.ts [--seeds N]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../common/data-layout.ts';
import { loadAllowlist } from '../gateway/catalog/allowlist.ts';
import { renderTable } from '../cli/render-table.ts';
import { confidentFinish } from '../simfleet/agent-behaviour.ts';
import { adviceMarker } from '../simfleet/prompt-features.ts';
import { decideRealisticTurn } from '../simfleet/realistic-agent.ts';
import type { ChatMessage, ToolDefinition } from '../simfleet/request-schema.ts';
import { loadSimScenarios, type SimScenario } from '../simfleet/scenario-recognition.ts';
import { solveProbability } from '../simfleet/agent-behaviour.ts';
import { unitFromParts } from '../simfleet/deterministic-random.ts';

const { values } = parseArgs({ options: { seeds: { type: 'string', default: '40' } } });
const seeds = Number(values.seeds);
const allowlist = loadAllowlist();
const scenarios = await loadSimScenarios();
const opening = JSON.parse(readFileSync(path.join(repoRoot, 'agents', 'hermes-opening.json'), 'utf8')) as {
  system: string;
  tools: ToolDefinition[];
};
const skill = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');

interface Variant {
  name: string;
  writer: string;
  skill: string;
  /** Extra system text for a scenario (coaching). */
  system?: (scenario: SimScenario) => string;
  cutToolResults?: boolean;
  advisers?: string[];
}

const bareSkill = skill('policy/examples/pin-glm-flash/SKILL.md');
const variants: Variant[] = [
  { name: 'pin glm-5.3-flash, its SKILL.md (pin-glm-flash)', writer: 'glm-5.3-flash', skill: bareSkill },
  {
    name: 'same + planning/verification notes (bench/packs/flash-guided)',
    writer: 'glm-5.3-flash',
    skill: skill('bench/packs/flash-guided/SKILL.md'),
  },
  {
    name: 'same model, tool results cut at 600 chars (flash-truncating)',
    writer: 'glm-5.3-flash',
    skill: bareSkill,
    cutToolResults: true,
  },
  { name: 'same model, instruction cut to 400 chars', writer: 'glm-5.3-flash', skill: bareSkill, system: undefined },
  {
    name: 'same model + 8 hidden solution lines (coaching cheat)',
    writer: 'glm-5.3-flash',
    skill: bareSkill,
    system: (s) => `Reference notes:\n${(s.hiddenLines ?? []).slice(0, 8).join('\n')}`,
  },
  {
    name: 'glm-5.3-flash + advisers deepseek-v4.1-flash, qwen3.8-27b (flash-advisers)',
    writer: 'glm-5.3-flash',
    skill: skill('policy/examples/flash-advisers/SKILL.md'),
    advisers: ['deepseek-v4.1-flash', 'qwen3.8-27b'],
  },
  { name: 'pin deepseek-v4.1-flash', writer: 'deepseek-v4.1-flash', skill: bareSkill },
  { name: 'pin qwen3.8-27b', writer: 'qwen3.8-27b', skill: bareSkill },
  { name: 'pin kimi-k3', writer: 'kimi-k3', skill: bareSkill },
];

function model(id: string) {
  return allowlist.models.find((m) => m.id === id)!;
}

/** A pretend tool result: what a read prints is long, a failed guess short. */
function pretendOutput(command: string): string {
  if (command.includes('cat /workspace/SKILL.md')) return '';
  const failed = /_helpers as h|\.orig/.test(command);
  return failed ? 'Traceback (most recent call last):\n  ...\nModuleNotFoundError' : 'line of output\n'.repeat(100);
}

function play(variant: Variant, scenario: SimScenario, seed: number): { solved: boolean; turns: number } {
  const cutInstruction = variant.name.includes('instruction cut');
  const instruction = cutInstruction ? scenario.normalisedInstruction.slice(0, 400) : scenario.normalisedInstruction;
  let messages: ChatMessage[] = [
    { role: 'system', content: opening.system },
    { role: 'user', content: instruction },
  ];
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
    if (reply.kind === 'text') return { solved: reply.content === confidentFinish, turns: turn };
    const command = (JSON.parse(reply.malformed ? '{"command":""}' : reply.argumentsText) as { command: string })
      .command;
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
  return { solved: false, turns: 60 };
}

const rows = variants.map((variant) => {
  let solved = 0;
  let turns = 0;
  for (const scenario of scenarios)
    for (let seed = 0; seed < seeds; seed++) {
      const result = play(variant, scenario, seed);
      if (result.solved) solved++;
      turns += result.turns;
    }
  const runs = scenarios.length * seeds;
  return {
    name: variant.name,
    solved: (100 * solved) / runs,
    perRun: (solved / seeds).toFixed(2),
    turns: (turns / runs).toFixed(1),
  };
});
process.stdout.write(
  `${scenarios.length} scenarios × ${seeds} seeds, conversations played in-process on the realistic fleet\n` +
    renderTable(
      [
        { header: 'policy', value: (r: (typeof rows)[number]) => r.name },
        { header: 'solved %', value: (r) => r.solved.toFixed(1), align: 'right' },
        { header: 'scenarios solved / 26', value: (r) => r.perRun, align: 'right' },
        { header: 'turns', value: (r) => r.turns, align: 'right' },
      ],
      rows,
    ) +
    '\n',
);
