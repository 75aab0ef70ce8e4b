import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unreachableNeed, dockerfileNeeds } from '../catalog/dockerfile-steps.ts';
import { planBuild, planNotes, renderRewrite } from './dockerfile-rewrite.ts';
import { goReleaseTarballs, isGoReleaseDownload, servedFromLocalCopy } from './go-release-tarball.ts';

const dockerfile = [
  'FROM ubuntu:22.04',
  'RUN apt-get update && apt-get install -y curl',
  'RUN GOARCH=$(dpkg --print-architecture) && \\',
  '    curl -L https://golang.org/dl/go1.21.5.linux-$GOARCH.tar.gz -o go.tar.gz && \\',
  '    tar -C /usr/local -xzf go.tar.gz && rm go.tar.gz',
  'ENV PATH=/usr/local/go/bin:$PATH',
].join('\n');

test("a curl of Go's release tarball is found with its version, on either host; wget is not rewritten", () => {
  assert.deepEqual(
    goReleaseTarballs('curl -fsSL https://go.dev/dl/go1.22.3.linux-amd64.tar.gz | tar -xz -C /usr/local'),
    ['1.22.3'],
  );
  assert.deepEqual(goReleaseTarballs('curl -LO https://dl.google.com/go/go1.20.linux-amd64.tar.gz'), ['1.20']);
  assert.deepEqual(goReleaseTarballs('wget https://go.dev/dl/go1.22.3.linux-amd64.tar.gz'), []);
  assert.deepEqual(goReleaseTarballs('curl -L https://example.org/go1.22.3.linux-amd64.tar.gz'), []);
  assert.equal(
    servedFromLocalCopy('curl -L https://golang.org/dl/go1.21.5.linux-$GOARCH.tar.gz -o go.tar.gz'),
    'curl -L file:///opt/trl-downloads/go1.21.5.linux-$GOARCH.tar.gz -o go.tar.gz',
  );
  assert.equal(
    isGoReleaseDownload(
      'https://go.dev/dl/go1.22.3.linux-amd64.tar.gz',
      'curl -LO https://go.dev/dl/go1.22.3.linux-amd64.tar.gz',
    ),
    true,
  );
  assert.equal(
    isGoReleaseDownload(
      'https://go.dev/dl/go1.22.3.linux-amd64.tar.gz',
      'wget https://go.dev/dl/go1.22.3.linux-amd64.tar.gz',
    ),
    false,
  );
});

test('import no longer refuses the task for the download; the build fetches the release from the module proxy first', () => {
  assert.equal(unreachableNeed(dockerfileNeeds(dockerfile), new Set()), undefined);
  assert.match(
    unreachableNeed(
      dockerfileNeeds(dockerfile.replace('curl -L', 'wget -O go.tar.gz').replace(' -o go.tar.gz', '')),
      new Set(),
    ) ?? '',
    /a download from golang\.org/,
  );
  const plan = planBuild(dockerfile);
  assert.equal(plan.kind, 'rewrite');
  assert.ok(
    planNotes(plan).some((note) =>
      /^Go 1\.21\.5 release tarball: the same release from the Go module proxy/.test(note),
    ),
  );
  const rendered = renderRewrite(plan as Extract<typeof plan, { kind: 'rewrite' }>, {
    goProxy: 'https://proxy.example',
  });
  const step = rendered.indexOf(
    "curl -fsSL -o /tmp/trl-go/go.zip 'https://proxy.example/golang.org/toolchain/@v/v0.0.1-go1.21.5.linux-amd64.zip'",
  );
  const run = rendered.indexOf('curl -L file:///opt/trl-downloads/go1.21.5.linux-$GOARCH.tar.gz -o go.tar.gz');
  assert.ok(step > 0 && run > step, rendered);
  assert.ok(rendered.includes('tar -czf /opt/trl-downloads/go1.21.5.linux-amd64.tar.gz go'));
  assert.ok(!rendered.includes('https://golang.org/dl/'), 'nothing left to fetch from golang.org');
  assert.throws(() => renderRewrite(plan as Extract<typeof plan, { kind: 'rewrite' }>, {}), /no Go module proxy/);
});
