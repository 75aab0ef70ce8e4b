// The SDK is written to be copied on its own, so it restates the protocol's shapes and the call
// error's brand instead of importing them; these checks keep the copies in step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { BudgetView as ProtocolBudget, ModelInfo as ProtocolModel } from './protocol.ts';
import type { BudgetView, ModelInfo } from '../sdk/index.ts';
import { policyCallErrorBrand } from '../sdk/index.ts';
import { runnerPath } from '../testing/fake-host.ts';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const modelsMatch: Same<ModelInfo, ProtocolModel> = true;
const budgetsMatch: Same<BudgetView, ProtocolBudget> = true;

test('the SDK and the protocol agree on ModelInfo, BudgetView and the call-error brand', async () => {
  assert.ok(modelsMatch && budgetsMatch);
  const runner = await readFile(runnerPath, 'utf8');
  assert.ok(
    runner.includes(`Symbol.for('${policyCallErrorBrand.description}')`),
    'the runner brands call errors as the SDK expects',
  );
});
