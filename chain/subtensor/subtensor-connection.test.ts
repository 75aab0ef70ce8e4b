import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { ChainError } from '../chain-error.ts';
import { openSubtensor } from './subtensor-client.ts';

async function closedLoopbackPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
    });
  });
}

test('a node that is not there is a retryable connection error, once, without reconnect attempts', async () => {
  const port = await closedLoopbackPort();
  const error = await openSubtensor({ endpoint: `ws://127.0.0.1:${port}`, timeoutMs: 5_000 }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ChainError);
  assert.deepEqual([error.kind, error.code, error.retryable], ['connection', 'connect_failed', true]);
  assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
  assert.doesNotMatch(error.message, /no answer within/, 'refused by the socket, not given up on at the timeout');
});

test('an endpoint that is not a ws:// URL is refused before dialling', async () => {
  const error = await openSubtensor({ endpoint: 'http://127.0.0.1:9944' }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ChainError);
  assert.deepEqual([error.kind, error.code, error.retryable], ['connection', 'bad_endpoint', false]);
});
