import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PromptFeatures } from './prompt-features.ts';
import { effects, ensembleHeadroom, logit, sigmoid, solveChance } from './solve-chance.ts';

const plain: PromptFeatures = {
  instructionIntact: true,
  toolResults: 4,
  toolResultsCut: 0,
  planningAdvice: false,
  verificationAdvice: false,
  hiddenLines: 30,
  hiddenLinesPresent: 0,
  adviserNotes: [],
};

test('an honest, intact request keeps the profile chance exactly', () => {
  for (const base of [0, 0.2, 0.5, 0.93, 1]) assert.equal(solveChance(base, plain).chance, base);
});

test('a damaged instruction and cut tool results lower the chance, in proportion to what was cut', () => {
  const base = 0.6;
  const damaged = solveChance(base, { ...plain, instructionIntact: false }).chance;
  assert.ok(Math.abs(damaged - sigmoid(logit(0.6) + effects.instructionDamaged)) < 1e-12);
  assert.ok(damaged < 0.3);
  const halfCut = solveChance(base, { ...plain, toolResultsCut: 2 }).chance;
  const allCut = solveChance(base, { ...plain, toolResultsCut: 4 }).chance;
  assert.ok(allCut < halfCut && halfCut < base);
});

test('guidance helps by a bounded amount: at most about ten points at one half', () => {
  const both = solveChance(0.5, { ...plain, planningAdvice: true, verificationAdvice: true }).chance;
  const verify = solveChance(0.5, { ...plain, verificationAdvice: true }).chance;
  assert.ok(both > verify && verify > 0.5);
  assert.ok(both - 0.5 < 0.11, `guidance lifted 0.5 to ${both}`);
});

test('coaching needs two hidden lines and then lifts a weak model sharply', () => {
  assert.equal(solveChance(0.2, { ...plain, hiddenLinesPresent: 1 }).chance, 0.2);
  const coached = solveChance(0.2, { ...plain, hiddenLinesPresent: 2 }).chance;
  assert.ok(coached > 0.6, `coached chance ${coached}`);
  const full = solveChance(0.2, { ...plain, hiddenLinesPresent: 30 }).chance;
  assert.ok(full > 0.9 && full > coached);
});

test('advice from sound advisers beats the writer and the advisers alone, by at most the headroom', () => {
  const writer = 0.45;
  const advisers = [0.5, 0.55];
  const notes = [
    { model: 'a', sound: true },
    { model: 'b', sound: true },
  ];
  const advised = solveChance(writer, { ...plain, adviserNotes: notes }, advisers).chance;
  assert.ok(advised > Math.max(writer, ...advisers), `advised ${advised}`);
  assert.ok(advised <= Math.max(writer, ...advisers) + ensembleHeadroom + 1e-12);
  // Capped in logits too: three sound notes add no more than two.
  const three = solveChance(
    writer,
    { ...plain, adviserNotes: [...notes, { model: 'c', sound: true }] },
    [0.5, 0.55, 0.5],
  );
  assert.ok(three.applied['advice']! <= effects.adviceCap);
  const unsound = solveChance(writer, { ...plain, adviserNotes: [{ model: 'a', sound: false }] }, [0.5]).chance;
  assert.ok(unsound < writer);
});
