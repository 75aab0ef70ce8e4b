// Pool refusals as a node and as chopsticks word them, and dispatch errors decoded by name
// through the finney metadata (spec 424).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DispatchError } from '@polkadot/types/interfaces';
import { finneyMetadataFile, requireChainTestFile } from './testing/chain-test-data.ts';
import { loadOfflineRuntime } from './testing/offline-metadata.ts';
import { classifyDispatchError, classifySubmissionError, subtensorCustomErrors } from './transaction-errors.ts';

test('a Subtensor custom error is Custom(N), named from the spec 424 table, retryable only for rate limits and early reveals', () => {
  const rateLimited = classifySubmissionError(new Error('1010: Invalid Transaction: Custom error: 6'));
  assert.equal(rateLimited.kind, 'invalid_transaction');
  assert.equal(rateLimited.code, 'Custom(6)');
  assert.equal(rateLimited.retryable, true);
  assert.match(rateLimited.message, /RateLimitExceeded/);

  const notRegistered = classifySubmissionError(new Error('1010: Invalid Transaction: Custom error: 10'));
  assert.equal(notRegistered.code, 'Custom(10)');
  assert.equal(notRegistered.retryable, false);
  assert.match(notRegistered.message, /HotKeyNotRegisteredInNetwork/);

  const early = classifySubmissionError(new Error('1010: Invalid Transaction: Custom error: 17'));
  assert.equal(early.retryable, true);
  assert.match(early.message, /CommitBlockNotInRevealRange/);

  const unknown = classifySubmissionError(new Error('1010: Invalid Transaction: Custom error: 200'));
  assert.equal(unknown.code, 'Custom(200)');
  assert.match(unknown.message, /not in the spec 424 table/);
  assert.equal(subtensorCustomErrors[255], 'BadRequest');
});

test('chopsticks words pool refusals as JSON; they classify the same way', () => {
  assert.equal(classifySubmissionError(new Error('1010: {"invalid":{"custom":6}}')).code, 'Custom(6)');
  const stale = classifySubmissionError(new Error('1010: {"invalid":{"stale":null}}'));
  assert.deepEqual([stale.code, stale.retryable], ['Stale', true]);
  assert.equal(classifySubmissionError(new Error('1010: {"invalid":{"badProof":null}}')).code, 'BadProof');
  assert.equal(classifySubmissionError(new Error('1010: {"invalid":{"payment":null}}')).code, 'Payment');
});

test('node pool refusals: stale and future nonces and low priority are retryable; a bad proof or no fee is not', () => {
  const cases: Array<[string, string, boolean]> = [
    ['1010: Invalid Transaction: Transaction is outdated', 'Stale', true],
    ['1010: Invalid Transaction: Transaction will be valid in the future', 'Future', true],
    ['1010: Invalid Transaction: Transaction has a bad signature', 'BadProof', false],
    ['1010: Invalid Transaction: Inability to pay some fees (e.g. account balance too low)', 'Payment', false],
    ['1010: Invalid Transaction: Transaction has an ancient birth block', 'AncientBirthBlock', true],
    ['1014: Priority is too low: (140 vs 140)', 'PriorityTooLow', true],
    ['1012: Transaction is temporarily banned', 'TemporarilyBanned', true],
    ['1013: Transaction Already Imported', 'AlreadyImported', false],
  ];
  for (const [message, code, retryable] of cases) {
    const error = classifySubmissionError(new Error(message));
    assert.equal(error.kind, 'invalid_transaction', message);
    assert.equal(error.code, code, message);
    assert.equal(error.retryable, retryable, message);
  }
});

test('a dropped connection while sending is a retryable connection error', () => {
  const error = classifySubmissionError(new Error('WebSocket is not connected'));
  assert.deepEqual([error.kind, error.retryable], ['connection', true]);
});

test('module errors decode to Pallet.ErrorName through the metadata', () => {
  const { registry } = loadOfflineRuntime(requireChainTestFile(finneyMetadataFile));
  const moduleError = (index: number, error: number) =>
    registry.createType('DispatchError', { Module: { index, error: [error, 0, 0, 0] } }) as unknown as DispatchError;

  const tooFast = classifyDispatchError(registry, moduleError(7, 29));
  assert.deepEqual(
    [tooFast.kind, tooFast.code, tooFast.retryable],
    ['dispatch', 'SubtensorModule.SettingWeightsTooFast', true],
  );
  const noSubnet = classifyDispatchError(registry, moduleError(7, 76));
  assert.deepEqual([noSubnet.code, noSubnet.retryable], ['SubtensorModule.SubnetNotExists', false]);
  assert.equal(classifyDispatchError(registry, moduleError(7, 79)).code, 'SubtensorModule.RevealTooEarly');
  assert.equal(
    classifyDispatchError(registry, moduleError(7, 110)).code,
    'SubtensorModule.IncorrectCommitRevealVersion',
  );
  const badOrigin = classifyDispatchError(
    registry,
    registry.createType('DispatchError', { BadOrigin: null }) as unknown as DispatchError,
  );
  assert.equal(badOrigin.code, 'BadOrigin');
});
