import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ScoredEvaluation, SeatRecord } from '../../contracts/seat.ts';
import { decideChallenge } from '../../scoring/decision-rule.ts';
import { seatDecisionFile, seatDecisionReportFile } from '../../common/data-layout.ts';
import { seatReportCommand } from '../commands/seat-report-command.ts';
import { renderSeatReport, type DecisionFile } from './seat-report.ts';
import { externalReferences } from './self-contained.ts';

const incumbentHash = 'a'.repeat(64);
const challengerHash = 'b'.repeat(64);
const names = [
  'csv-sales-report',
  'fix-inventory-bug',
  'sqlite-orders-analytics',
  'log-incident-summary',
  'api-rate-limiter',
];

function evaluation(packHash: string, side: string, passed: number[]): ScoredEvaluation {
  return {
    packHash,
    workflowId: `evaluate-seat-11-3-${side}-${packHash.slice(0, 12)}-r0`,
    status: 'completed',
    testsPassed: passed.reduce((t, p) => t + p, 0),
    testsTotal: 10 * passed.length,
    perScenario: passed.map((testsPassed, i) => ({ scenario: names[i]!, testsPassed, testsTotal: 10 })),
  };
}

/** A decision file as recordSeatDecision writes it, with the real decision rule's decision. */
function decisionFile(netuid: number, challengerPassed: number[]): DecisionFile {
  const incumbent = evaluation(incumbentHash, 'incumbent', [4, 5, 6, 3, 5]);
  const challenger = evaluation(challengerHash, 'challenger', challengerPassed);
  const decision = decideChallenge({
    incumbentPackHash: incumbentHash,
    challengerPackHash: challengerHash,
    incumbent: [incumbent],
    challenger: [challenger],
    bootstrapResamples: 10_000,
    confidence: 0.998,
  });
  const record: SeatRecord = {
    number: 3,
    packHash: challengerHash,
    hotkey: '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty',
    outcome: decision.outcome,
    reason: decision.reason,
    incumbentPackHash: incumbentHash,
    incumbentTotal: decision.incumbentTotal,
    challengerTotal: decision.challengerTotal,
    decidedAt: '2026-12-01T10:00:00.000Z',
    evaluations: [challenger.workflowId, incumbent.workflowId],
  };
  return {
    netuid,
    record,
    challenge: { packHash: challengerHash, hotkey: record.hotkey },
    decision,
    evaluations: [challenger, incumbent],
    manifestHash: 'c'.repeat(64),
  };
}

test('the evidence page shows both sides per scenario, the margin and the bootstrap bound, drawn again to the same value', () => {
  const file = decisionFile(11, [9, 10, 9, 8, 10]);
  const decision = file.decision!;
  assert.equal(decision.outcome, 'challenger_takes_seat');
  const html = renderSeatReport(file, '2026-12-01T10:05:00.000Z');
  assert.match(html, /^<!doctype html>/);
  assert.deepEqual(externalReferences(html), []);
  for (const name of names) assert.ok(html.includes(`<td>${name}</td>`), name);
  assert.ok(html.includes(`<b>${decision.challengerTotal}</b><span>challenger C (tests)</span>`));
  assert.ok(html.includes(`<b>${decision.incumbentTotal}</b><span>incumbent I (tests)</span>`));
  assert.ok(html.includes(decision.requiredTotal.toFixed(2)), 'the required total');
  assert.ok(html.includes('(matches the record)'), 'the bound drawn again equals the recorded one');
  assert.ok(
    html.includes(`lower bound ${decision.bootstrap.lowerBound.toFixed(2)}`),
    'the bound is marked on the histogram',
  );
  assert.equal((html.match(/resamples<\/title><\/rect>/g) ?? []).length, 40, 'forty histogram bins');
  assert.ok(html.includes('>9/10</td>') && html.includes('>4/10</td>'), "each side's own count per scenario");
});

test('a recorded bound that the sampler no longer reproduces is called out', () => {
  const file = decisionFile(11, [9, 10, 9, 8, 10]);
  file.decision!.bootstrap.lowerBound += 1;
  assert.ok(renderSeatReport(file, 'now').includes('differs from the record'));
});

test('trl seat --report writes the latest decision of the subnet beside its file, or the one asked for', async () => {
  const netuid = 9000 + Math.floor(Math.random() * 900);
  const first = decisionFile(netuid, [4, 5, 6, 3, 5]);
  first.record.number = 1;
  const third = decisionFile(netuid, [9, 10, 9, 8, 10]);
  for (const f of [first, third]) {
    const file = seatDecisionFile(netuid, f.record.number, f.challenge.packHash);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ ...f, parameters: { repeats: 1 } }, null, 2));
  }
  assert.equal(await seatReportCommand({ netuid }), 0);
  const latest = await readFile(seatDecisionReportFile(netuid, 3, challengerHash), 'utf8');
  assert.match(latest, /Seat decision #3/);
  assert.match(latest, /challenger_takes_seat/);
  assert.equal(await seatReportCommand({ netuid, decision: 1 }), 0);
  assert.match(await readFile(seatDecisionReportFile(netuid, 1, challengerHash), 'utf8'), /incumbent_keeps_seat/);
  await assert.rejects(seatReportCommand({ netuid, decision: 2 }), /no decision #2 on subnet \d+; there are #1 to #3/);
});
