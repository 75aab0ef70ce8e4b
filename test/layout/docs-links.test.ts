// The documents cannot drift from the tree: in README.md and every docs/**/*.md, each relative link
// reaches a file (and its heading, when it names an anchor), each `trl …` line in code names a real
// command and only the options its parser accepts (cli/command-table.ts, what `trl help` prints),
// and README.md stays a front door of at most 250 lines. The checker is tried first on a small tree
// of broken documents, so a checker that finds nothing cannot pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';
import { commandOptions, helpCommands } from '../../cli/command-table.ts';
import {
  checkCommandLine,
  checkDocuments,
  commandLines,
  formatProblems,
  headingAnchors,
} from '../support/docs-check.ts';

const readmeMaxLines = 250;

test('the checker finds a broken link, a missing anchor, an unknown command and an unknown option', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'trl-docs-check-'));
  try {
    mkdirSync(path.join(root, 'docs', 'how-to'), { recursive: true });
    writeFileSync(path.join(root, 'docs', 'how-to', 'target.md'), '# A page\n\n## Second part: `trl eval`\n');
    writeFileSync(
      path.join(root, 'README.md'),
      [
        '# Front',
        'Good: [page](docs/how-to/target.md), [part](docs/how-to/target.md#second-part-trl-eval), [web](https://example.org/x).',
        'Broken: [gone](docs/how-to/missing.md).',
        'Anchor: [part](docs/how-to/target.md#no-such-part).',
        '```sh',
        './trl eval policy/examples/cost-cascade --scenario csv-sales-report   # fine',
        './trl eval policy/examples/cost-cascade --bogus 1',
        '```',
        'Inline: `trl frobnicate now` and `trl serve keys add ci --spend-limit-usd 5` and `trl …`.',
      ].join('\n'),
    );
    const problems = checkDocuments(root, commandOptions, helpCommands);
    assert.deepEqual(
      problems.map((problem) => `${problem.file}:${problem.line}`),
      ['README.md:3', 'README.md:4', 'README.md:7', 'README.md:9'],
      formatProblems(problems),
    );
    assert.match(problems[0]!.message, /docs\/how-to\/missing\.md, which does not exist/);
    assert.match(
      problems[1]!.message,
      /no heading with anchor #no-such-part; use one of #a-page, #second-part-trl-eval/,
    );
    assert.match(problems[2]!.message, /trl eval has no option --bogus .*cli\/command-table\.ts/);
    assert.match(problems[3]!.message, /there is no command "frobnicate"/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('command lines are cut at comments, pipes and redirections; alternatives are each checked', () => {
  assert.deepEqual(commandLines('TRL_X=1 ./trl test --faults   # slow | not this'), [['test', '--faults']]);
  assert.deepEqual(commandLines('./trl export ID --format atif > out.jsonl'), [['export', 'ID', '--format', 'atif']]);
  assert.deepEqual(commandLines('trl-policy-sdk and trl_ctrf are not commands'), []);
  assert.deepEqual(commandLines('✔ every trl command line is real (43 ms)'), []);
  assert.deepEqual(commandLines('$ ./trl seat --json && trl consensus'), [['seat', '--json'], ['consensus']]);
  assert.deepEqual(checkCommandLine(['serve', '--pack', '…|--seated'], commandOptions, helpCommands), []);
  assert.equal(checkCommandLine(['serve', '--pack', 'x|--sated'], commandOptions, helpCommands).length, 1);
});

test('heading anchors follow GitHub: punctuation dropped, spaces to hyphens, repeats numbered', () => {
  assert.deepEqual(
    [
      ...headingAnchors(
        '# Production topology (`./trl test --topology`)\n## Notes\n## Notes\n```\n# not a heading\n```\n',
      ),
    ],
    ['production-topology-trl-test---topology', 'notes', 'notes-1'],
  );
});

test('every relative link in README.md and docs/ resolves, and every trl command line is real', () => {
  const problems = checkDocuments(repoRoot, commandOptions, helpCommands);
  assert.equal(problems.length, 0, `fix these lines:\n${formatProblems(problems)}`);
});

test(`README.md is a front door of at most ${readmeMaxLines} lines`, () => {
  const lines = readFileSync(path.join(repoRoot, 'README.md'), 'utf8').replace(/\n$/, '').split('\n').length;
  assert.ok(
    lines <= readmeMaxLines,
    `README.md:${lines}: README.md has ${lines} lines, more than ${readmeMaxLines}; move the depth to a page under docs/ and link it`,
  );
});
