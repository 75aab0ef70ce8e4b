import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveBase, splitReference } from './public-base-images.ts';
import { parseDockerfile, planBuild, planNotes, renderRewrite, splitCaBundle } from './dockerfile-rewrite.ts';

function standIn(reference: string) {
  const resolved = resolveBase(reference);
  assert.ok(resolved.ok, `${reference}: ${resolved.ok ? '' : resolved.reason}`);
  return resolved.standIn;
}

test("Python bases stand in as Debian Python 3.11, or trixie's 3.13, with pip, saying which version differs", () => {
  assert.match(standIn('python:3.12-slim').note, /Python 3\.11 \(Debian bookworm\) for Python 3\.12/);
  assert.match(standIn('python:3.11-slim-bookworm').note, /^Python 3\.11: Debian bookworm's Python 3\.11 with pip/);
  assert.ok(standIn('python:3.11').debianPackages.includes('build-essential'), 'the full image has build tools');
  assert.ok(!standIn('python:3.11-slim').debianPackages.includes('build-essential'));
  const python313 = standIn('ghcr.io/laude-institute/t-bench/python-3-13:20250620');
  assert.match(
    python313.note,
    /^Python 3\.13: Debian trixie's Python 3\.13 on the bookworm base .*with pip in a venv at \/opt\/python/,
  );
  assert.deepEqual(python313.setup, ['python3 -m venv --system-site-packages /opt/python']);
  assert.deepEqual(python313.newerDebianPackages, ['python3-pip', 'python3-venv', 'python3-dev', 'python-is-python3']);
  assert.equal(standIn('python:3.13-slim').debianPackages.length, 0, 'slim: no build tools');
  assert.match(standIn('python:3.12-slim').note, /and uv does not download one/);
  assert.match(standIn('docker.io/library/python:3.10').note, /for Python 3\.10/);
});

test('Go, Node, Java, Rust and OS bases map to registry toolchains or Debian packages', () => {
  assert.deepEqual(standIn('golang:1.22').toolchains, [{ kind: 'go', version: '1.22' }]);
  assert.deepEqual(standIn('public.ecr.aws/docker/library/golang:1.26.2').toolchains, [
    { kind: 'go', version: '1.26.2' },
  ]);
  assert.deepEqual(standIn('node:20-slim').toolchains, [{ kind: 'node', version: '20' }]);
  assert.match(standIn('eclipse-temurin:17-jdk').note, /^OpenJDK 17 \(Debian\), standing in/);
  assert.match(standIn('eclipse-temurin:21').note, /for JDK 21/);
  assert.ok(standIn('maven:3.9-eclipse-temurin-17').debianPackages.includes('maven'));
  assert.match(standIn('rust:1.60').note, /Rust 1\.63 \(Debian bookworm's/);
  assert.match(
    standIn('rust:1.83-slim-bookworm').note,
    /^Rust 1\.85 \(Debian trixie's rustc and cargo on the bookworm base\) for rust:1\.83/,
  );
  assert.deepEqual(standIn('rust:1.83').newerDebianPackages, ['rustc', 'cargo']);
  assert.match(standIn('rust:1.90').note, /older than asked/);
  assert.match(standIn('rust:latest').note, /Rust 1\.85.*older than asked/);
  assert.match(standIn('ubuntu:24.04').note, /Debian bookworm for Ubuntu 24\.04/);
  assert.match(standIn('ghcr.io/laude-institute/t-bench/ubuntu-24-04:20250624').note, /Ubuntu 24\.04/);
  assert.match(standIn('debian:bookworm-slim').note, /sandbox base image itself/);
  assert.ok(standIn('buildpack-deps:jammy').debianPackages.includes('libssl-dev'));
});

test('prebuilt task images, Alpine and unknown images are refused with the reason', () => {
  const refused = (reference: string) => {
    const resolved = resolveBase(reference);
    assert.ok(!resolved.ok, reference);
    return resolved.reason;
  };
  assert.match(refused('swebench/sweb.eval.x86_64.django__django-11099:latest'), /prebuilt SWE-bench task image/);
  assert.match(refused('ghcr.io/laude-institute/t-bench/deveval:latest'), /prebuilt DevEval/);
  assert.match(refused('python:3.12-alpine'), /Alpine/);
  assert.match(refused('registry.example.internal/team/private:1'), /does not know/);
  assert.match(refused('golang:latest'), /tag latest of golang has no stand-in/);
});

test('references split into name, tag and digest; a registry port is not a tag', () => {
  assert.deepEqual(splitReference('localhost:5000/x'), { name: 'localhost:5000/x', tag: 'latest' });
  assert.deepEqual(splitReference('python:3.12@sha256:ab'), { name: 'python', tag: '3.12', digest: 'sha256:ab' });
});

test('the plan keeps ${BASE_IMAGE} Dockerfiles as written and rewrites each public stage', () => {
  assert.deepEqual(planBuild('ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nRUN true\n'), { kind: 'as-written' });
  const dockerfile = [
    'ARG GO=1.22',
    'FROM --platform=linux/amd64 golang:${GO} AS build',
    'RUN go build \\',
    '  -o /x .',
    'FROM build AS test',
    'FROM debian:bookworm-slim',
    'COPY --from=build /x /x',
  ].join('\n');
  const plan = planBuild(dockerfile);
  assert.equal(plan.kind, 'rewrite');
  assert.equal(planNotes(plan).length, 2);
  assert.match(planNotes(plan)[0]!, /FROM golang:1\.22 rewritten: Go 1\.22 \(its newest patch release\)/);
  const rendered = renderRewrite(plan as Extract<typeof plan, { kind: 'rewrite' }>, {
    goProxy: 'https://goproxy.test',
    npmRegistry: 'https://npm.test',
  });
  assert.match(rendered, /^ARG BASE_IMAGE=trl-sandbox-base:latest\nARG GO=1\.22\n/);
  assert.match(rendered, /FROM \$\{BASE_IMAGE\} AS build\n/);
  assert.match(rendered, /FROM build AS test\n/);
  assert.match(rendered, /GOPROXY=https:\/\/goproxy\.test/);
  assert.match(rendered, /PIP_CERT=\/etc\/ssl\/certs\/ca-certificates\.crt/);
  assert.match(rendered, /RUN go build \\\n {2}-o \/x \./, 'other instructions are kept byte for byte');
  assert.equal((rendered.match(/trl-host\/\*\.crt >>/g) ?? []).length, 2);
});

test('the plan refuses what it cannot build: a refused base, COPY --from an image, no FROM', () => {
  assert.deepEqual(planBuild('FROM python:3.12-alpine\n').kind, 'refused');
  const copied = planBuild('FROM python:3.12\nCOPY --from=registry.example.test/tools:1 /tool /bin/\n');
  assert.ok(copied.kind === 'refused' && /COPY --from=registry\.example\.test\/tools:1/.test(copied.reason));
  assert.equal(planBuild('RUN true\n').kind, 'refused');
});

test('continuation lines join; comments inside them are dropped', () => {
  const [run] = parseDockerfile('RUN apt-get install -y \\\n# a comment\n    curl git\n');
  assert.equal(run!.keyword, 'RUN');
  assert.match(run!.argument, /apt-get install -y\s+curl git/);
});

test('a CA bundle splits into one certificate each', () => {
  const pem = (n: number) => `-----BEGIN CERTIFICATE-----\nAAA${n}\n-----END CERTIFICATE-----`;
  assert.equal(splitCaBundle(`# a\n${pem(1)}\n\n${pem(2)}\n`).length, 2);
});

test('COPY --from the uv image becomes uv from PyPI, at the same version', () => {
  const plan = planBuild('FROM ubuntu:24.04\nCOPY --from=ghcr.io/astral-sh/uv:0.8.15 /uv /uvx /bin/\n');
  assert.equal(plan.kind, 'rewrite');
  assert.match(planNotes(plan).join('\n'), /uv 0\.8\.15 from PyPI's uv wheel/);
  const rendered = renderRewrite(plan as Extract<typeof plan, { kind: 'rewrite' }>, {});
  assert.match(rendered, /pip install -q uv==0\.8\.15/);
  assert.match(rendered, /cp \/opt\/trl-uv\/bin\/uv \/bin\/uv && cp \/opt\/trl-uv\/bin\/uvx \/bin\/uvx/);
  assert.doesNotMatch(rendered, /COPY --from/);
});

test("Python 3.13 comes from Debian trixie on the base's own mirror, pinned; uv never downloads an interpreter", () => {
  const plan = planBuild('FROM python:3.13-slim\nRUN pip install numpy\n');
  const rendered = renderRewrite(plan as Extract<typeof plan, { kind: 'rewrite' }>, {});
  assert.match(
    rendered,
    /sed -n 's\/\^deb \\\(\\S\*\\\) bookworm main\.\*\/deb \\1 trixie main\/p' \/etc\/apt\/sources\.list/,
  );
  assert.match(rendered, /Pin: release n=trixie\\nPin-Priority: 100/);
  assert.match(rendered, /apt-get install -y -qq --no-install-recommends -t trixie python-is-python3 python3-dev/);
  assert.match(rendered, /UV_PYTHON_DOWNLOADS=never/);
  const bookworm = renderRewrite(planBuild('FROM python:3.11-slim\n') as Extract<typeof plan, { kind: 'rewrite' }>, {});
  assert.doesNotMatch(bookworm, /trixie/);
});
