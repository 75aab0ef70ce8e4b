// Property: whatever a pack makes the agent write or the policy report, the activity results that
// carry it stay under 256 KB (DESIGN invariant 6).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { AgentRunResult } from '../contracts/results.ts';
import { boundAgentRunResult, boundRejections, maxPayloadBytes } from './payload-bounds.ts';

const ref = { path: '/data/artifacts/run/x', sha256: 'a'.repeat(64), sizeBytes: 1 };
/** Strings up to megabytes: a short random piece repeated, with any code points (multi-byte, control). */
const hostileText = fc
  .tuple(fc.string({ unit: 'binary', maxLength: 40 }), fc.integer({ min: 1, max: 50_000 }))
  .map(([piece, times]) => piece.repeat(times));
const hostileList = <T>(item: fc.Arbitrary<T>) =>
  fc.oneof(
    fc.array(item, { maxLength: 30 }),
    fc.integer({ min: 0, max: 200_000 }).chain((length) => item.map((one) => Array.from({ length }, () => one))),
  );

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

test('property: an agent run result stays under 256 KB whatever its notes and faults', () => {
  fc.assert(
    fc.property(
      hostileList(hostileText),
      hostileList(
        fc.record({
          kind: fc.constantFrom('protocol_violation', 'crash', 'policy_exception'),
          requestId: hostileText,
          message: hostileText,
        }),
      ),
      fc.dictionary(
        hostileText.map((text) => text.slice(0, 5000)),
        fc.double({ noNaN: true }),
        { maxKeys: 300 },
      ),
      (outputNotes, faults, costByModelUsd) => {
        const result: AgentRunResult = {
          outcome: 'completed',
          exitCode: 0,
          wallMs: 1,
          outputs: ref,
          agentLog: ref,
          outputNotes,
          policy: {
            costUsd: 0,
            costByModelUsd,
            calls: 0,
            agentRequests: 0,
            budgetRefusals: 0,
            faults,
            callLog: ref,
            policyLog: ref,
            turnLog: ref,
          },
        };
        const bounded = boundAgentRunResult(result);
        assert.ok(bytesOf(bounded) <= maxPayloadBytes, `${bytesOf(bounded)} bytes`);
        if (outputNotes.length > 50) assert.match(bounded.outputNotes.at(-1)!, /^\+\d+ more$/);
      },
    ),
    { numRuns: 60 },
  );
});

test('property: pre-evaluation rejection reasons stay under 256 KB', () => {
  fc.assert(
    fc.property(
      hostileList(fc.record({ code: fc.constant('scenario_specific_content'), message: hostileText })),
      (reasons) => {
        assert.ok(bytesOf(boundRejections(reasons)) <= maxPayloadBytes);
      },
    ),
    { numRuns: 60 },
  );
});

test('the largest inputs at once: 200 k notes and faults of 1 MB each', () => {
  const huge = 'é\n'.repeat(500_000);
  const many = Array.from({ length: 200_000 }, () => huge);
  const result = boundAgentRunResult({
    outcome: 'agent_error',
    exitCode: 1,
    wallMs: 1,
    outputs: ref,
    agentLog: ref,
    outputNotes: many,
    policy: {
      costUsd: 0,
      calls: 0,
      agentRequests: 0,
      budgetRefusals: 0,
      faults: many.map((message) => ({ kind: 'protocol_violation', requestId: huge, message })),
      callLog: ref,
      policyLog: ref,
    },
  });
  assert.ok(bytesOf(result) <= 100 * 1024, `${bytesOf(result)} bytes`);
});
