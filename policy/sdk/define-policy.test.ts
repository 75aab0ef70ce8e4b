import { test } from 'node:test';
import assert from 'node:assert/strict';
import { definePolicy } from './define-policy.ts';
import { textCompletion } from './completions.ts';

test('definePolicy returns the policy itself and refuses shapes without complete()', () => {
  const policy = {
    async complete() {
      return textCompletion('x');
    },
  };
  assert.equal(definePolicy(policy), policy);
  assert.throws(() => definePolicy(null as never), /expects an object/);
  assert.throws(() => definePolicy({ compelte() {} } as never), /no complete\(request, ctx\) function/);
});
