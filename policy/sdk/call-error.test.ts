import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PolicyCallError, isPolicyCallError, isRetryableError, policyCallErrorBrand } from './call-error.ts';

test('PolicyCallError carries status, type and retryable', () => {
  const error = new PolicyCallError(429, 'rate_limited', 'slow down', true);
  assert.ok(error instanceof Error);
  assert.ok(error instanceof PolicyCallError);
  assert.deepEqual(
    [error.name, error.status, error.type, error.retryable, error.message],
    ['PolicyCallError', 429, 'rate_limited', true, 'slow down'],
  );
  assert.ok(isRetryableError(error));
  assert.ok(!isRetryableError(new PolicyCallError(400, 'invalid_request', 'bad', false)));
});

test('errors built elsewhere (the runner) count as PolicyCallError by their brand, plain errors do not', () => {
  const foreign = Object.assign(new Error('busy'), {
    name: 'PolicyCallError',
    status: 503,
    type: 'upstream_error',
    retryable: true,
  });
  assert.ok(!(foreign instanceof PolicyCallError), 'no brand, no match');
  Object.defineProperty(foreign, policyCallErrorBrand, { value: true });
  assert.ok(foreign instanceof PolicyCallError);
  assert.ok(isPolicyCallError(foreign) && foreign.retryable);
  assert.ok(!isPolicyCallError(new Error('x')));
  assert.ok(!isPolicyCallError('rate_limited'));
  assert.ok(!isRetryableError(undefined));
  class Special extends PolicyCallError {}
  assert.ok(
    !(new PolicyCallError(500, 'upstream_error', 'x', true) instanceof Special),
    'subclasses keep prototype semantics',
  );
});
