import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packHash } from '../packs/canonical-pack.ts';
import { boundaryFor, parseDelimitedFiles } from './judge-delimiters.ts';
import { parseScenarioDigest } from './judge-scenarios.ts';
import { cannedAnswerPack, injectedVerdictLine, injectionPack } from './testing/judge-fixtures.ts';
import {
  announcedBoundary,
  buildJudgeMessages,
  judgeMarker,
  judgePromptVersion,
  judgeResponseFormat,
} from './judge-prompt.ts';

test('the system message opens with the marker, announces the boundary and holds no pack text', () => {
  const hash = packHash(injectionPack);
  const prompt = buildJudgeMessages(injectionPack, hash);
  const [system, user] = prompt.messages;
  assert.ok(system.content.startsWith(judgeMarker));
  assert.equal(announcedBoundary(system.content), boundaryFor(hash));
  assert.equal(prompt.boundary, boundaryFor(hash));
  assert.ok(!system.content.includes(injectedVerdictLine));
  assert.ok(user.content.includes(injectedVerdictLine));
  // Every file of the pack, and the manifest, travel as delimited data.
  const files = parseDelimitedFiles(user.content, prompt.boundary);
  assert.deepEqual(
    files.map((file) => file.path),
    ['SKILL.md', 'policy.ts'],
  );
  assert.equal(
    prompt.dataChars,
    prompt.files.reduce((sum, file) => sum + file.rendered.length, 0),
  );
});

test('the system message depends only on the boundary: pack content cannot shape it', () => {
  const a = buildJudgeMessages(injectionPack, packHash(injectionPack)).messages[0].content;
  const b = buildJudgeMessages(cannedAnswerPack, packHash(cannedAnswerPack)).messages[0].content;
  assert.equal(a.replace(/TRL-PACK-DATA-[0-9a-f]{32}/g, 'B'), b.replace(/TRL-PACK-DATA-[0-9a-f]{32}/g, 'B'));
});

test('announcedBoundary reads only judge prompts', () => {
  assert.equal(announcedBoundary('You are a helpful assistant. Pack data boundary: X'), undefined);
});

test('the prompt version is a short content hash and the response format is strict', () => {
  assert.match(judgePromptVersion, /^2-[0-9a-f]{12}$/);
  assert.equal(judgeResponseFormat.json_schema.strict, true);
});

test("the scenarios follow the pack's files, SKILL.md among them, and their digest is part of the prompt version", () => {
  const hash = packHash(injectionPack);
  const scenarios = [
    {
      name: 'csv-sales-report',
      instruction: '# Sales report\n\nThe file `/app/data/sales.csv` is an export of orders.',
    },
    { name: 'semver-range-matcher', instruction: '# Semver ranges\n\nImplement `satisfies(version, range)`.' },
  ];
  const prompt = buildJudgeMessages(injectionPack, hash, scenarios);
  const user = prompt.messages[1].content;
  assert.ok(user.indexOf('End of the pack data.') < user.indexOf('csv-sales-report'));
  assert.ok(user.includes('The file `/app/data/sales.csv` is an export of orders.'), 'whitespace collapsed, text kept');
  assert.deepEqual(
    parseScenarioDigest(user, prompt.boundary).map((item) => item.name),
    ['csv-sales-report', 'semver-range-matcher'],
  );
  assert.ok(parseDelimitedFiles(user, prompt.boundary).some((file) => file.path === 'SKILL.md'));
  assert.ok(prompt.messages[0].content.includes('SKILL.md reaches the agent'));
  // A cached verdict is reused only for the same wording and the same scenarios.
  assert.match(prompt.promptVersion, new RegExp(`^${judgePromptVersion}\\+[0-9a-f]{12}$`));
  assert.equal(buildJudgeMessages(injectionPack, hash).promptVersion, judgePromptVersion);
  const edited = buildJudgeMessages(injectionPack, hash, [scenarios[0]!]);
  assert.notEqual(edited.promptVersion, prompt.promptVersion);
  // The scenario section does not count as pack data.
  assert.equal(prompt.dataChars, buildJudgeMessages(injectionPack, hash).dataChars);
});
