// The workflows' non-retryable lists (contracts/failure-types.ts) must say exactly what the
// activities decide when they classify an error: a type retried by one and not the other would
// either waste attempts or give up on a transient fault.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { classifyError, PackFaultError } from './failures.ts';
import { PackError } from '../packs/pack-error.ts';
import { ScenarioError } from '../catalog/scenario-error.ts';
import { VerifierFailure } from '../verifiers/run-verifier.ts';
import { ImageBuildError } from '../sandbox/image-build.ts';
import { ChainError } from '../chain/chain-error.ts';
import {
  chainErrorKinds,
  chainFailureType,
  failureTypes,
  chainNonRetryableTypes,
  evaluationNonRetryableTypes,
  packFailureTypes,
  packFaultTypes,
  verifierFailureTypes,
} from '../contracts/failure-types.ts';
import { spendCeilingReachedType } from '../gateway/spend/attempt-spend.ts';

function classifiedFailure(error: unknown): ApplicationFailure {
  const failure = classifyError(error);
  assert.ok(failure instanceof ApplicationFailure, `classified ${String(error)}`);
  return failure;
}

test('every evaluation failure the activities raise is non-retryable exactly when the workflow lists it', () => {
  const raised = [
    ...Object.values(packFailureTypes).map((code) =>
      classifiedFailure(new PackError(code, 'x', code === packFailureTypes.fetchFailed)),
    ),
    classifiedFailure(new ScenarioError('s', 'x')),
    ...Object.values(packFaultTypes).map((type) => classifiedFailure(new PackFaultError(type, 'x'))),
    ...Object.values(verifierFailureTypes).map((kind) => classifiedFailure(new VerifierFailure(kind, 'x', ''))),
    classifiedFailure(new ImageBuildError('t', 'x')),
    ApplicationFailure.create({ type: spendCeilingReachedType, nonRetryable: true }),
    ApplicationFailure.create({ type: 'artifact_corrupt', nonRetryable: true }),
    ApplicationFailure.create({ type: failureTypes.tapeDiverged, nonRetryable: true }),
  ];
  for (const failure of raised) {
    assert.equal(
      evaluationNonRetryableTypes.includes(failure.type!),
      failure.nonRetryable,
      `${failure.type}: workflow list and activity disagree`,
    );
  }
  assert.deepEqual(
    [...new Set(raised.filter((f) => f.nonRetryable).map((f) => f.type))].sort(),
    [...evaluationNonRetryableTypes].sort(),
  );
});

test('chain kinds the cycle never retries are the ones whose errors are raised non-retryable', () => {
  for (const kind of chainErrorKinds) {
    const error = new ChainError(kind, 'code', 'x', {
      retryable: kind === 'connection' || kind === 'invalid_transaction',
    });
    assert.equal(chainNonRetryableTypes.includes(chainFailureType(kind)), !error.retryable, kind);
  }
});

test('a failure carrying pack text is cut to a few KB, whatever its size', () => {
  const failure = classifyError(
    new PackError('pack_invalid', `bundle failed:\n${'x: error\n'.repeat(500_000)}`),
  ) as Error;
  assert.ok(Buffer.byteLength(failure.message) <= 8 * 1024);
  assert.ok(Buffer.byteLength(failure.stack ?? '') <= 8 * 1024);
  const plain = classifyError(new Error('y'.repeat(1_000_000))) as Error;
  assert.ok(Buffer.byteLength(plain.message) <= 8 * 1024);
});
