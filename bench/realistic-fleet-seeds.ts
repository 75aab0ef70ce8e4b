// The realistic fleet's prompt effects with statistical power: whole conversations played in-process
// against simfleet/realistic-agent.ts (no Docker, no Hermes: pretend tool results), every scenario × N
// seeds, for policies that differ only in what they send. Complements bench/realistic-fleet.ts, whose
// real evaluations are one seed each.
//   node --import tsx bench/realistic-fleet-seeds.ts [--seeds N]
import { parseArgs } from 'node:util';
import { renderTable } from '../cli/render-table.ts';
import { loadSimScenarios } from '../simfleet/scenario-recognition.ts';
import { play, readSkill as skill, type Variant } from './realistic-play.ts';

const { values } = parseArgs({ options: { seeds: { type: 'string', default: '40' } } });
const seeds = Number(values.seeds);
const scenarios = await loadSimScenarios();

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
  { name: 'same model, instruction cut to 400 chars', writer: 'glm-5.3-flash', skill: bareSkill, cutInstruction: true },
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

const rows = variants.map((variant) => {
  let solved = 0;
  let turns = 0;
  for (const scenario of scenarios)
    for (let seed = 0; seed < seeds; seed++) {
      const result = play(variant, scenario, seed, scenarios);
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
