import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { fromUpstreamError, GatewayError } from './gateway-error.ts';

const apiError = (status: number, body: object) => OpenAI.APIError.generate(status, { error: body }, undefined, new Headers());

test('upstream failures become typed gateway errors with retry advice', () => {
  const cases: [unknown, string, number, boolean][] = [
    [apiError(429, { message: 'slow down', code: 'rate_limit_exceeded' }), 'rate_limited', 429, true],
    [apiError(500, { message: 'boom' }), 'upstream_error', 502, true],
    [apiError(503, { message: 'overloaded' }), 'upstream_error', 502, true],
    [apiError(400, { message: 'too long', code: 'context_length_exceeded' }), 'context_length_exceeded', 400, false],
    [apiError(400, { message: 'bad tool schema' }), 'invalid_request', 400, false],
    [new OpenAI.APIConnectionTimeoutError(), 'upstream_timeout', 504, true],
    [new OpenAI.APIConnectionError({ message: 'refused' }), 'upstream_error', 502, true],
    [new Error('socket hang up'), 'upstream_error', 502, true],
  ];
  for (const [error, type, status, retryable] of cases) {
    const mapped = fromUpstreamError(error, 'glm-5.2');
    assert.equal(mapped.type, type, String(error));
    assert.equal(mapped.status, status);
    assert.equal(mapped.retryable, retryable);
    assert.match(mapped.message, /glm-5.2/);
  }
});

test('gateway errors serialise to OpenAI-style bodies', () => {
  const error = new GatewayError(402, 'budget_exceeded', 'no money left', false);
  assert.deepEqual(error.toHttpBody(), { error: { message: 'no money left', type: 'budget_exceeded', code: 'budget_exceeded', param: null } });
  assert.deepEqual(error.toJSON(), { status: 402, type: 'budget_exceeded', message: 'no money left', retryable: false });
});
