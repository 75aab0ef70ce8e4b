import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCtrf, parseReward, VerifierReportError } from './ctrf-report.ts';

const report = (summary: object, tests: object[] = []) => JSON.stringify({ results: { tool: { name: 'pytest' }, summary, tests } });

test('a CTRF report gives passed and total counts', () => {
  const counts = parseCtrf(report({ tests: 7, passed: 5, failed: 2, skipped: 0 }, [{ name: 't1', status: 'passed', duration: 3 }]));
  assert.deepEqual([counts.testsPassed, counts.testsTotal, counts.source], [5, 7, 'ctrf']);
  assert.deepEqual(counts.tests, [{ name: 't1', status: 'passed' }]);
});

test('reports that ran nothing, are inconsistent or malformed are verifier errors', () => {
  assert.throws(() => parseCtrf(report({ tests: 0, passed: 0, failed: 0 })), VerifierReportError);
  assert.throws(() => parseCtrf(report({ tests: 2, passed: 2, failed: 1 })), /inconsistent/);
  assert.throws(() => parseCtrf('{'), /not JSON/);
  assert.throws(() => parseCtrf(JSON.stringify({ results: {} })), /field "results.summary"/);
});

test('reward.txt counts as one test, passed only at 1', () => {
  assert.equal(parseReward('1\n').testsPassed, 1);
  assert.equal(parseReward('0.5').testsPassed, 0);
  assert.throws(() => parseReward('lots'), VerifierReportError);
  assert.throws(() => parseReward('2'), VerifierReportError);
});
