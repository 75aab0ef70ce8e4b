import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dockerfileNeeds, unreachableNeed } from '../catalog/dockerfile-steps.ts';
import { planBuild, planNotes, renderRewrite } from './dockerfile-rewrite.ts';
import { scenarioBuildContext } from './scenario-image.ts';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const dockerfile = [
  'FROM python:3.12-slim',
  'RUN apt-get update && apt-get install -y curl && curl -LsSf https://astral.sh/uv/0.9.5/install.sh | sh',
  'ENV PATH="/root/.local/bin:$PATH"',
  'RUN uv --version',
  '',
].join('\n');

test("astral.sh's uv installer in a Dockerfile: not refused, and built from uv's PyPI wheel at the same version", async () => {
  assert.equal(unreachableNeed(dockerfileNeeds(dockerfile), new Set(['pypi.org'])), undefined);
  const plan = planBuild(dockerfile);
  assert.ok(plan.kind === 'rewrite');
  assert.ok(
    planNotes(plan).some((note) =>
      /RUN line: astral\.sh's uv installer script replaced by uv 0\.9\.5 from PyPI/.test(note),
    ),
  );
  const rendered = renderRewrite(plan, {});
  const copy = rendered.indexOf('COPY .trl-build/tools/install_uv.py /opt/trl-registry-tape/install_uv.py');
  const run = rendered.indexOf('curl && python3 /opt/trl-registry-tape/install_uv.py 0.9.5');
  assert.ok(copy > 0 && run > copy, rendered);
  assert.ok(!rendered.includes('astral.sh/uv'));
  // The installer travels in the build context.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'uv-installer-'));
  await mkdir(path.join(dir, 'environment'));
  await writeFile(path.join(dir, 'environment', 'Dockerfile'), dockerfile);
  const context = await scenarioBuildContext({ name: 'uv', dir });
  assert.ok(
    context.files.some((file) => file.name === '.trl-build/tools/install_uv.py' && file.content.includes('PyPI')),
  );
  // Any other installer piped to a shell is still refused.
  assert.match(
    unreachableNeed(dockerfileNeeds('FROM x\nRUN curl -fsSL https://sh.rustup.rs | sh -s -- -y\n'), new Set())!,
    /installer piped to a shell from sh\.rustup\.rs/,
  );
});
