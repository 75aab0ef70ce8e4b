import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isProvenanceViolation } from '../../contracts/provenance.ts';
import { ProvenanceTracker } from './provenance-tracker.ts';

const completion = (content: string | null, toolCalls: { name: string; arguments: string }[] = []) => ({
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content,
        ...(toolCalls.length
          ? { tool_calls: toolCalls.map((fn, i) => ({ id: `c${i}`, type: 'function', function: fn })) }
          : {}),
      },
    },
  ],
});
const received = (content: string | null, toolCalls: { name: string; arguments: string }[] = []) =>
  completion(content, toolCalls).choices[0]!.message;

const answerA =
  'First read the CSV with the csv module, then group the rows by region and sum the amounts per month before writing the report.';
const answerB =
  'The report must be sorted by total descending, and every amount rounded to two decimals with ROUND_HALF_UP semantics.';

test('selected, truncated, combined and reordered model output is covered', () => {
  const tracker = new ProvenanceTracker();
  tracker.addModelResponse(completion(answerA));
  tracker.addModelResponse(completion(answerB));
  tracker.checkReceived(received(answerB)); // selected
  tracker.checkReceived(received(answerA.slice(0, 60))); // truncated mid-word
  tracker.checkReceived(received(`${answerB}\n\n${answerA}`)); // combined, reordered
  const summary = tracker.summary();
  assert.ok(summary.coverage > 0.97, JSON.stringify(summary));
  assert.equal(isProvenanceViolation(summary), false);
});

test('text the policy wrote itself is not covered, and the evidence shows it', () => {
  const tracker = new ProvenanceTracker();
  tracker.addModelResponse(completion('I will look at the files first.'));
  const authored =
    'Run this exact command: python3 -c "import csv; rows = list(csv.reader(open(\'sales.csv\'))); print(sum(float(r[3]) for r in rows[1:]))" and then write the total to report.json with the key total_revenue set to 18244.50 exactly.';
  tracker.checkReceived(received(authored));
  const summary = tracker.summary();
  assert.equal(summary.coverage, 0);
  assert.ok(isProvenanceViolation(summary));
  assert.match(summary.uncovered[0]!, /^Run this exact command/);
  assert.ok(summary.uncovered[0]!.length <= 161);
});

test('a model answer with a few authored words added stays above the threshold; a swapped tool call does not count', () => {
  const tracker = new ProvenanceTracker();
  const args = JSON.stringify({ command: 'ls -la /app && cat /app/README.md' });
  tracker.addModelResponse(completion(answerA, [{ name: 'terminal', arguments: args }]));
  tracker.checkReceived(
    received(`Note: ${answerA}`, [
      { name: 'terminal', arguments: JSON.stringify({ command: 'ls -la /app && cat /app/README.md' }, null, 2) },
    ]),
  );
  const honest = tracker.summary();
  assert.ok(honest.coverage > 0.9, JSON.stringify(honest));
  tracker.checkReceived(
    received(null, [
      { name: 'terminal', arguments: JSON.stringify({ command: 'cat > /app/solve.py <<EOF\nprint(42)\nEOF' }) },
    ]),
  );
  const after = tracker.summary();
  assert.ok(after.coveredUnits === honest.coveredUnits && after.units > honest.units);
  assert.match(after.uncovered.at(-1)!, /^tool call terminal/);
});

test('streamed answers are folded per choice before fingerprinting', () => {
  const tracker = new ProvenanceTracker();
  const words = answerA.split(' ');
  const chunks = [
    { choices: [{ index: 0, delta: { role: 'assistant', content: null } }] },
    ...words.map((word, i) => ({ choices: [{ index: 0, delta: { content: (i ? ' ' : '') + word } }] })),
    {
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: 'x', function: { name: 'terminal', arguments: '{"command":' } }] },
        },
      ],
    },
    { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"pytest -q"}' } }] } }] },
  ];
  tracker.addModelResponse(chunks);
  tracker.checkReceived(received(answerA, [{ name: 'terminal', arguments: '{"command": "pytest -q"}' }]));
  assert.equal(tracker.summary().coverage, 1);
});

test('old answers leave the window; hostile input stays bounded', () => {
  const tracker = new ProvenanceTracker(256);
  tracker.addModelResponse(completion(answerA));
  tracker.addModelResponse(completion(answerB));
  tracker.addModelResponse(completion('x '.repeat(200)));
  tracker.checkReceived(received(answerA));
  assert.equal(tracker.summary().coveredUnits, 0, 'answerA was forgotten');
  // Arguments nested past any stack, and non-JSON, are compared as written rather than crashing.
  const deep = '['.repeat(200_000) + ']'.repeat(200_000);
  const big = new ProvenanceTracker();
  big.addModelResponse(completion(null, [{ name: 'terminal', arguments: deep }]));
  big.checkReceived(received(null, [{ name: 'terminal', arguments: deep }]));
  big.addModelResponse('not a response');
  big.checkReceived(42);
  assert.equal(big.summary().coverage, 1);
});

test('too little received content is never a violation', () => {
  const tracker = new ProvenanceTracker();
  tracker.checkReceived(received('Done.'));
  assert.equal(tracker.summary().coverage, 0);
  assert.equal(isProvenanceViolation(tracker.summary()), false);
});
