import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { repoRoot } from '../common/data-layout.ts';
import { packHash, type CanonicalPack } from '../packs/canonical-pack.ts';
import { readPackDirectory } from '../packs/read-pack.ts';
import { buildJudgeMessages, judgeResponseFormat } from '../screening/judge-protocol.ts';
import { readScenarioInstructions } from '../screening/judge-scenarios.ts';
import { readCorpus } from '../screening/testing/corpus.ts';
import { scenariosDir } from '../common/data-layout.ts';
import { simulatedJudgement } from './judge-mode.ts';
import { excerptsOf } from './judge-heuristics.ts';
import { playbookHints } from './judge-playbook.ts';
import { parseChatRequest } from './request-schema.ts';
import { loadSimScenarios } from './scenario-recognition.ts';

const instructions = await readScenarioInstructions([scenariosDir]);
const sims = await loadSimScenarios();

/** The sim judge's answer to the real judge request for `pack`, scenarios beside it. */
function judged(pack: CanonicalPack) {
  const parsed = parseChatRequest({
    model: 'glm-5.2',
    temperature: 0,
    messages: buildJudgeMessages(pack, packHash(pack), instructions).messages,
    response_format: judgeResponseFormat,
  });
  if (!parsed.ok) assert.fail(parsed.error.message);
  return simulatedJudgement(parsed.request, sims, 'test');
}

const skill = (text: string): CanonicalPack => ({
  schema_version: 1,
  files: { 'SKILL.md': text, 'policy.json': '{"pin":{"model":"glm-5.3-flash"}}' },
});

test('a SKILL.md whose hints map one by one onto scenarios is flagged, each hint its own evidence', async () => {
  const pack = await readPackDirectory(path.join(repoRoot, 'test', 'fixtures', 'packs', 'coaching', 'skill-playbook'));
  const answer = judged(pack);
  assert.equal(answer.verdict, 'reject');
  const flagged = answer.flags.filter((flag) => flag.type === 'scenario_gaming' && flag.file === 'SKILL.md');
  assert.ok(flagged.length >= 2, JSON.stringify(answer.flags));
  for (const flag of flagged) assert.ok(pack.files['SKILL.md']!.includes(flag.evidence), 'verbatim evidence');
});

test('a paraphrased two-scenario playbook is flagged; one task-shaped hint alone, or generic advice, is not', () => {
  const excerpts = excerptsOf(sims);
  const files = (text: string) => [{ path: 'SKILL.md', text }];
  const playbook = [
    '- For the messy sales export, count each order_id once and title-case every region.',
    '- For semver work: caret ranges on major zero pin the minor; prereleases match their own patch only.',
  ];
  const hints = playbookHints(files(playbook.join('\n')), excerpts);
  assert.deepEqual([...new Set(hints.map((hint) => hint.scenario))].sort(), [
    'csv-sales-report',
    'semver-range-matcher',
  ]);
  assert.deepEqual(playbookHints(files(playbook[0]!), excerpts), [], 'one scenario is not a playbook');
  const generic = [
    '# careful',
    'Read the files the task names before editing them, and keep changes small.',
    'Run the project tests (pytest, npm test) before saying the work is done.',
    'When a command fails, read the error message and fix the cause, not the symptom.',
    'Write output files exactly in the format the instruction asks for, then check them.',
  ].join('\n');
  assert.deepEqual(playbookHints(files(generic), excerpts), []);
  assert.equal(judged(skill(generic)).verdict, 'pass');
});

test('no honest pack or example is taken for a playbook', async () => {
  for (const entry of (await readCorpus()).filter((item) => item.group !== 'gaming')) {
    const answer = judged(entry.pack);
    assert.deepEqual(
      answer.flags.filter((flag) => flag.type === 'scenario_gaming'),
      [],
      entry.name,
    );
  }
});
