import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { failureTypes } from '../contracts/failure-types.ts';
import { isWarningByDesign } from './quiet-runtime.ts';

test('a full host refusing a claim and an activity-only worker are the design working; other failures stay warnings', () => {
  const full = ApplicationFailure.retryable('host full', failureTypes.sandboxHostFull);
  assert.equal(isWarningByDesign('Activity failed', { activityType: 'claimSandboxHost', error: full }), true);
  assert.equal(isWarningByDesign('No workflows registered, not polling for workflow tasks', {}), true);
  assert.equal(
    isWarningByDesign('Activity failed', {
      error: ApplicationFailure.retryable('docker down', failureTypes.sandboxHostLost),
    }),
    false,
  );
  assert.equal(isWarningByDesign('Activity failed', { error: new Error('plain') }), false);
  assert.equal(isWarningByDesign('Activity failed', undefined), false);
  assert.equal(isWarningByDesign('Workflow task failed', { error: full }), false);
});
