import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isProvenanceViolation, provenanceViolationReason } from '../../contracts/provenance.ts';
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
  assert.equal(after.coveredUnits, honest.coveredUnits, 'actions are not words');
  assert.equal(after.units, honest.units);
  assert.deepEqual([after.actions, after.coveredActions, after.actionCoverage], [2, 1, 0.5]);
  assert.match(after.uncovered.at(-1)!, /^tool call terminal/);
  assert.equal(isProvenanceViolation(after), true, 'one authored action is a violation whatever the words');
});

test('an action a model wrote in its text is covered; one with an edited argument is not', () => {
  const tracker = new ProvenanceTracker();
  tracker.addModelResponse(
    completion(
      'Next, run {"name": "terminal", "arguments": {"command": "python3 -m pytest -q /app/tests"}} and read it.',
    ),
  );
  tracker.checkReceived(
    received(null, [{ name: 'terminal', arguments: '{"command":"python3 -m pytest -q /app/tests"}' }]),
  );
  assert.equal(tracker.summary().actionCoverage, 1);
  tracker.checkReceived(received(null, [{ name: 'terminal', arguments: '{"command":"python3 -m pytest -q /app"}' }]));
  // "python3 -m pytest -q /app" is inside the model's text too: a truncation of a model's argument passes
  tracker.checkReceived(received(null, [{ name: 'terminal', arguments: '{"command":"rm -rf /app/tests"}' }]));
  const summary = tracker.summary();
  assert.deepEqual([summary.actions, summary.coveredActions], [3, 2]);
  assert.equal(isProvenanceViolation(summary), true);
});

test("issue 36: tool calls the policy writes itself behind a cheap model's repeated text are a violation", () => {
  const tracker = new ProvenanceTracker();
  for (let turn = 0; turn < 9; turn++) {
    tracker.addModelResponse(completion(answerA));
    tracker.checkReceived(
      received(answerA, [{ name: 'terminal', arguments: JSON.stringify({ command: `cat /app/step-${turn}.txt` }) }]),
    );
  }
  const summary = tracker.summary();
  assert.ok(summary.coverage > 0.9, `word coverage stays high: ${summary.coverage}`);
  assert.deepEqual([summary.actions, summary.coveredActions, summary.actionCoverage], [9, 0, 0]);
  assert.equal(isProvenanceViolation(summary), true);
  assert.match(
    provenanceViolationReason(summary),
    /^9 of the 9 tool calls the agent received came from no model's output/,
  );
});

test('a call with more argument values than the text check reads must match a model call exactly', () => {
  const tracker = new ProvenanceTracker();
  const values = Array.from({ length: 200 }, (_, i) => `v${i}`);
  tracker.addModelResponse(completion(`terminal ${values.join(' ')}`));
  tracker.checkReceived(received(null, [{ name: 'terminal', arguments: JSON.stringify({ values }) }]));
  assert.equal(tracker.summary().coveredActions, 0);
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

test('part of a stream relayed before its call is booked (cut when the episode ended) is the model’s', () => {
  const tracker = new ProvenanceTracker();
  // The agent got the first half of a streamed answer; the call was still open, then cut and booked.
  const firstHalf = answerA.slice(0, 60);
  tracker.checkReceived(received(firstHalf), true);
  tracker.addModelResponse([
    { choices: [{ index: 0, delta: { role: 'assistant', content: firstHalf } }] },
    { choices: [{ index: 0, delta: { content: answerA.slice(60, 90) } }] },
  ]);
  tracker.settle();
  assert.equal(tracker.summary().coverage, 1);
  // Waiting changes nothing for text no model wrote: summary() checks what still waits.
  const later = new ProvenanceTracker();
  later.checkReceived(received('The policy wrote this answer itself and no model ever saw it anywhere.'), true);
  assert.equal(later.summary().coverage, 0);
  assert.equal(later.summary().turns, 1);
});

test('received answers waiting for open calls stay bounded', () => {
  const tracker = new ProvenanceTracker();
  for (let i = 0; i < 500; i++)
    tracker.checkReceived(received(`answer number ${i} written by nobody at all here`), true);
  assert.equal(tracker.summary().turns, 500);
});
