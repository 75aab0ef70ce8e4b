import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import {
  fromUpstreamError,
  GatewayError,
  isRetriedByGateway,
  isUpstreamInfrastructureFailure,
  upstreamRequestIdOf,
  wasRefusedUnbilled,
} from './gateway-error.ts';

const apiError = (status: number, body: object) =>
  OpenAI.APIError.generate(status, { error: body }, undefined, new Headers());

test('upstream failures become typed gateway errors with retry advice', () => {
  const cases: [unknown, string, number, boolean][] = [
    [apiError(429, { message: 'slow down', code: 'rate_limit_exceeded' }), 'rate_limited', 429, true],
    [apiError(500, { message: 'boom' }), 'upstream_error', 502, true],
    [apiError(503, { message: 'overloaded' }), 'upstream_error', 502, true],
    [apiError(400, { message: 'too long', code: 'context_length_exceeded' }), 'context_length_exceeded', 400, false],
    [
      apiError(400, {
        message: 'request (9000 tokens) exceeds the available context size',
        type: 'exceed_context_size_error',
        code: 400,
      }),
      'context_length_exceeded',
      400,
      false,
    ],
    [apiError(400, { message: 'bad tool schema' }), 'invalid_request', 400, false],
    [apiError(401, { message: 'bad key' }), 'upstream_unavailable', 502, true],
    [apiError(402, { message: 'insufficient credit' }), 'upstream_unavailable', 502, true],
    [apiError(403, { message: 'account suspended' }), 'upstream_unavailable', 502, true],
    [apiError(404, { message: 'no such model' }), 'invalid_request', 400, false],
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
  const error = new GatewayError(402, 'cap', 'no money left', false);
  assert.deepEqual(error.toHttpBody(), { error: { message: 'no money left', type: 'cap', code: 'cap', param: null } });
  assert.deepEqual(error.toJSON(), { status: 402, type: 'cap', message: 'no money left', retryable: false });
});

test('429 and 503 are retried by the gateway; clear refusals are released, everything else after sending is charged', () => {
  assert.equal(isRetriedByGateway(apiError(429, { message: 'x' })), true);
  assert.equal(isRetriedByGateway(apiError(503, { message: 'x' })), true);
  assert.equal(isRetriedByGateway(apiError(500, { message: 'x' })), false);
  for (const status of [400, 401, 404, 429])
    assert.equal(wasRefusedUnbilled(apiError(status, { message: 'x' })), true, String(status));
  for (const status of [500, 502, 503])
    assert.equal(wasRefusedUnbilled(apiError(status, { message: 'x' })), false, String(status));
  assert.equal(wasRefusedUnbilled(new OpenAI.APIConnectionTimeoutError()), false);
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  assert.equal(wasRefusedUnbilled(new OpenAI.APIConnectionError({ message: 'refused', cause: refused })), true);
  assert.equal(
    wasRefusedUnbilled(
      new OpenAI.APIConnectionError({
        message: 'reset',
        cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
      }),
    ),
    false,
  );
});

test("the upstream's request id comes from x-request-id, else the error body's id", () => {
  const withHeader = OpenAI.APIError.generate(
    500,
    { error: { message: 'x' } },
    undefined,
    new Headers({ 'x-request-id': 'req-1' }),
  );
  assert.equal(upstreamRequestIdOf(withHeader), 'req-1');
  assert.equal(upstreamRequestIdOf(apiError(500, { message: 'x', id: 'body-2' })), 'body-2');
  assert.equal(upstreamRequestIdOf(new Error('x')), undefined);
});

test("blame: rate limits past retries, 5xx, timeouts and account refusals are the infrastructure's; bad requests and the cap are the policy's", () => {
  const infrastructure = [
    apiError(429, { message: 'x' }),
    apiError(500, { message: 'x' }),
    apiError(503, { message: 'x' }),
    apiError(401, { message: 'x' }),
    apiError(402, { message: 'x' }),
    apiError(403, { message: 'x' }),
    new OpenAI.APIConnectionTimeoutError(),
    new OpenAI.APIConnectionError({ message: 'refused' }),
  ];
  for (const error of infrastructure)
    assert.equal(isUpstreamInfrastructureFailure(fromUpstreamError(error, 'm')), true, String(error));
  const policy = [
    apiError(400, { message: 'x' }),
    apiError(400, { message: 'x', code: 'context_length_exceeded' }),
    apiError(404, { message: 'x' }),
    apiError(422, { message: 'x' }),
  ];
  for (const error of policy)
    assert.equal(isUpstreamInfrastructureFailure(fromUpstreamError(error, 'm')), false, String(error));
  assert.equal(isUpstreamInfrastructureFailure(new GatewayError(402, 'cap', 'no money left', false)), false);
  assert.equal(isUpstreamInfrastructureFailure(new GatewayError(400, 'model_not_allowed', 'no', false)), false);
});
