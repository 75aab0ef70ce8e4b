import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  failedTests,
  parseCtrf,
  parseReward,
  parseRewardJson,
  readVerifierScore,
  VerifierReportError,
} from './ctrf-report.ts';

const report = (summary: object, tests: object[] = []) =>
  JSON.stringify({ results: { tool: { name: 'pytest' }, summary, tests } });

test('a CTRF report gives passed and total counts', () => {
  const counts = parseCtrf(
    report({ tests: 7, passed: 5, failed: 2, skipped: 0 }, [{ name: 't1', status: 'passed', duration: 3 }]),
  );
  assert.deepEqual([counts.testsPassed, counts.testsTotal, counts.source], [5, 7, 'ctrf']);
  assert.deepEqual(counts.tests, [{ name: 't1', status: 'passed' }]);
});

test('reports that are inconsistent or malformed are verifier errors', () => {
  assert.throws(() => parseCtrf(report({ tests: 2, passed: 2, failed: 1 })), /inconsistent/);
  assert.throws(() => parseCtrf('{'), /not JSON/);
  assert.throws(() => parseCtrf(JSON.stringify({ results: {} })), /field "results.summary"/);
});

test('a reward is a share of the declared tests, rounded down', () => {
  assert.deepEqual([parseReward('1\n').testsPassed, parseReward('1\n').testsTotal], [1, 1]);
  assert.deepEqual(
    [parseReward('0.5', 4).testsPassed, parseReward('0.5', 4).testsTotal, parseReward('0.5', 4).reward],
    [2, 4, 0.5],
  );
  assert.equal(parseReward('0.74', 4).testsPassed, 2);
  assert.equal(parseReward('1', 0).testsTotal, 1, 'a task with no countable tests is one test');
  assert.throws(() => parseReward('lots'), VerifierReportError);
  assert.throws(() => parseReward('2'), VerifierReportError);
  assert.throws(() => parseReward(''), VerifierReportError);
});

test('reward.json: the "reward" key, a single named reward, or the mean of several', () => {
  assert.equal(parseRewardJson('{"reward": 0.75}', 4).testsPassed, 3);
  assert.equal(parseRewardJson('{"accuracy": 0.5}', 2).testsPassed, 1);
  assert.equal(parseRewardJson('{"a": 1, "b": 0}', 10).testsPassed, 5);
  assert.throws(() => parseRewardJson('{"reward": "high"}'), /not a number in \[0, 1\]/);
  assert.throws(() => parseRewardJson('{}'), /no reward/);
  assert.throws(() => parseRewardJson('[1]'), /object of named rewards/);
});

test('the score: CTRF with tests wins; zero collected is 0 of the declared count; placeholders fall to the reward', () => {
  const ctrf = report({ tests: 3, passed: 2, failed: 1 });
  const fromCtrf = readVerifierScore({ ctrf, rewardTxt: '0' }, 9);
  assert.deepEqual([fromCtrf.counts.testsPassed, fromCtrf.counts.testsTotal, fromCtrf.reportName], [2, 3, 'ctrf.json']);

  const none = readVerifierScore({ ctrf: report({ tests: 0, passed: 0, failed: 0 }), rewardTxt: '1' }, 6);
  assert.deepEqual([none.counts.testsPassed, none.counts.testsTotal], [0, 6]);
  assert.match(none.notes.join(), /no tests collected/);

  const placeholder = readVerifierScore({ ctrf: '{}', rewardTxt: '0.5' }, 4);
  assert.deepEqual(
    [placeholder.counts.testsPassed, placeholder.counts.testsTotal, placeholder.reportName],
    [2, 4, 'reward.txt'],
  );
  assert.match(placeholder.notes.join(), /reward file decides/);

  assert.equal(readVerifierScore({ rewardJson: '{"reward": 1}' }, 2).counts.testsPassed, 2);
  assert.equal(readVerifierScore({ rewardTxt: 'x', rewardJson: '{"reward": 0.5}' }, 2).counts.testsPassed, 1);
  assert.throws(() => readVerifierScore({ ctrf: '{}' }, 2), VerifierReportError);
  assert.throws(() => readVerifierScore({}, 2), /no ctrf.json, reward.txt or reward.json/);
});

test('failedTests names the tests that did not pass with their messages; anything else is none', () => {
  const report = JSON.stringify({
    results: {
      summary: { tests: 2, passed: 1, failed: 1 },
      tests: [
        { name: 'a', status: 'passed' },
        { name: 'b', status: 'failed', message: 'assert 1 == 2' },
      ],
    },
  });
  assert.deepEqual(failedTests(report), [{ name: 'b', message: 'assert 1 == 2' }]);
  assert.deepEqual(failedTests('not json'), []);
  assert.deepEqual(failedTests('{"results": 3}'), []);
});
