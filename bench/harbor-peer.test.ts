import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { scenariosDir } from '../common/data-layout.ts';
import { harborTaskCopy } from './harbor-peer.ts';

test("Harbor's copy of a scenario keeps it offline through a compose override and pins the base image", async () => {
  const destination = await mkdtemp(path.join(os.tmpdir(), 'trl-harbor-copy-'));
  try {
    const task = await harborTaskCopy(
      path.join(scenariosDir, 'csv-sales-report'),
      destination,
      'trl-sandbox-base:0123456789ab',
    );
    const toml = await readFile(path.join(task, 'task.toml'), 'utf8');
    assert.match(toml, /^allow_internet = true$/m);
    assert.doesNotMatch(toml, /allow_internet\s*=\s*false/);
    assert.equal(
      await readFile(path.join(task, 'environment', 'docker-compose.yaml'), 'utf8'),
      'services:\n  main:\n    network_mode: none\n',
    );
    assert.match(
      await readFile(path.join(task, 'environment', 'Dockerfile'), 'utf8'),
      /^ARG BASE_IMAGE=trl-sandbox-base:0123456789ab$/m,
    );
    // The scenario's own folder is untouched.
    assert.match(
      await readFile(path.join(scenariosDir, 'csv-sales-report', 'task.toml'), 'utf8'),
      /^allow_internet = false$/m,
    );
  } finally {
    await rm(destination, { recursive: true, force: true });
  }
});
