// Every Temporal client and worker a test creates takes its namespace from the one setting (the
// harness's, or infra/temporal-server.ts temporalEndpoint()), never a literal or an environment
// fallback of its own: `trl test` moves the suite into its own namespace by that setting alone.
// (test/integration/test-namespace.test.ts checks on the server that test runs land there.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../common/data-layout.ts';

const skipped = new Set(['node_modules', '.cache', '.data', '.git', 'scenarios']);

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : testSources(full);
    const relative = path.relative(repoRoot, full);
    return entry.name.endsWith('.ts') && (relative.startsWith(`test${path.sep}`) || entry.name.endsWith('.test.ts'))
      ? [relative]
      : [];
  });
}

const creators = /new Client\(|Worker\.create\(|startStandInWorkers\(/g;

/** The argument text of the call whose opening parenthesis ends at `start`, up to its closing one. */
function argumentsAt(text: string, start: number): string {
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(start, i);
  }
  return text.slice(start);
}

test("tests create Temporal clients and workers in the setting's namespace only", () => {
  const offending: string[] = [];
  for (const file of testSources(repoRoot)) {
    if (file === path.join('test', 'layout', 'test-namespace.test.ts')) continue;
    const text = readFileSync(path.join(repoRoot, file), 'utf8');
    const calls = [...text.matchAll(creators)];
    if (calls.length === 0) continue;
    if (/namespace:\s*['"`]/.test(text)) offending.push(`${file}: a literal namespace`);
    if (/TRL_TEMPORAL_NAMESPACE\s*\?\?/.test(text)) offending.push(`${file}: its own fallback for the namespace`);
    for (const call of calls) {
      const args = argumentsAt(text, call.index + call[0].length);
      // Without a namespace (or a spread of shared options that carry one) the SDK's `default` is used.
      if (!/\bnamespace\b|\.\.\./.test(args)) offending.push(`${file}: ${call[0]} without a namespace`);
    }
  }
  assert.deepEqual(offending, []);
});
