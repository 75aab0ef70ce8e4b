import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { composeBuild, isExcluded, taskBuild } from './compose-build.ts';
import { parseDockerfile } from './dockerfile-rewrite.ts';
import { scenarioBuildContext } from './scenario-image.ts';

async function task(compose?: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'compose-build-'));
  for (const folder of ['environment', 'app', 'tests', 'solution']) await mkdir(path.join(dir, folder));
  await writeFile(path.join(dir, 'environment', 'Dockerfile'), 'FROM ${BASE_IMAGE}\nCOPY app/ /app/\n');
  await writeFile(path.join(dir, 'app', 'main.py'), 'print(1)\n');
  await writeFile(path.join(dir, 'tests', 'test_outputs.py'), 'SECRET = 42\n');
  await writeFile(path.join(dir, 'solution', 'solve.sh'), 'echo 42\n');
  if (compose !== undefined) await writeFile(path.join(dir, 'environment', 'docker-compose.yaml'), compose);
  return dir;
}

const rootContext = [
  'services:',
  '  main:',
  '    build:',
  '      context: ${CONTEXT_DIR}/..',
  '      dockerfile: ${CONTEXT_DIR}/Dockerfile',
  '    image: ${MAIN_IMAGE_NAME}',
].join('\n');

test('without a compose file, or one that does not move the build, the image is built from environment/', async () => {
  for (const compose of [undefined, 'services:\n  main:\n    image: x\n', 'services:\n  main:\n    build: .\n']) {
    const build = await composeBuild(await task(compose));
    assert.equal(path.basename(build.contextDir), 'environment');
    assert.equal(build.dockerfile, 'Dockerfile');
    assert.deepEqual(build.notes, []);
  }
});

test('a compose context of the task folder is honoured, without the tests and the solution, and said', async () => {
  const dir = await task(rootContext);
  const build = await composeBuild(dir);
  assert.equal(build.contextDir, dir);
  assert.equal(build.dockerfile, 'environment/Dockerfile');
  assert.deepEqual(build.excluded, ['tests', 'solution']);
  assert.ok(isExcluded(build, 'tests/test_outputs.py') && !isExcluded(build, 'testsuite/x'));
  assert.match(
    build.notes[0]!,
    /built from the task folder as environment\/docker-compose\.yaml asks.*without tests\/ and solution\//,
  );
  const context = await scenarioBuildContext({ name: 't', dir });
  const names = context.files.map((file) => file.name);
  assert.equal(context.dockerfile, 'environment/Dockerfile');
  assert.ok(names.includes('app/main.py') && names.includes('environment/Dockerfile'));
  assert.ok(!names.some((name) => name.startsWith('tests/') || name.startsWith('solution/')), names.join(','));
});

test('a context outside the task folder, a Dockerfile outside its context and bad YAML are refused with the reason', async () => {
  const outside = 'services:\n  main:\n    build:\n      context: ${CONTEXT_DIR}/../..\n';
  await assert.rejects(composeBuild(await task(outside)), /outside the task folder/);
  const dockerfileOut = 'services:\n  main:\n    build:\n      context: .\n      dockerfile: ../other/Dockerfile\n';
  await assert.rejects(composeBuild(await task(dockerfileOut)), /outside its build context/);
  await assert.rejects(composeBuild(await task('services: [unclosed')), /not valid YAML/);
  await assert.rejects(composeBuild(await task('services:\n  main:\n    build: 7\n')), /neither a path nor a mapping/);
});

test('a COPY of a folder beside environment/ builds from the task folder, said; what no context has is refused first', async () => {
  const lines = (text: string) => parseDockerfile(text);
  const bare = await task();
  const beside = await taskBuild(bare, lines('FROM x\nCOPY app/ /app/\n'));
  assert.equal(beside.contextDir, bare);
  assert.equal(beside.dockerfile, 'environment/Dockerfile');
  assert.deepEqual(beside.excluded, ['tests', 'solution']);
  assert.match(
    beside.notes[0]!,
    /built from the task folder, without tests\/ and solution\/: environment\/Dockerfile copies app\//,
  );
  // Nothing missing: environment/ as Harbor builds it.
  assert.equal(path.basename((await taskBuild(bare, lines('FROM x\nCOPY Dockerfile /d\n'))).contextDir), 'environment');
  await assert.rejects(
    taskBuild(bare, lines('FROM x\nCOPY nowhere/ /n/\n')),
    /does not build as published: COPY nowhere\/ names what its build context \(environment\/\) does not have/,
  );
  await assert.rejects(
    taskBuild(bare, lines('FROM x\nCOPY solution/ /s/\n')),
    /the tests and the solution never enter an image/,
  );
  const composed = await task(rootContext);
  await assert.rejects(
    taskBuild(composed, lines('FROM x\nCOPY tests/ /t/\n')),
    /COPY tests\/ names what its build context \(\.\/\)/,
  );
  // --from, URLs, variables, globs and heredocs are not files of the context to check.
  const skipped =
    'FROM x\nCOPY --from=build /out /out\nADD https://example.org/a.tgz /a\nCOPY $SRC /s\nCOPY *.txt /t/\nCOPY <<EOF /f\nx\nEOF\nCOPY ["Dockerfile", "/d"]\n';
  assert.deepEqual((await taskBuild(bare, lines(skipped))).notes, []);
});
