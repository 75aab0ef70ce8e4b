import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { temporalConnectionOptions } from './temporal-connection-options.ts';

test('plain gRPC unless a TLS or API-key setting is given', () => {
  assert.deepEqual(temporalConnectionOptions('127.0.0.1:7233', {}), { address: '127.0.0.1:7233' });
  assert.deepEqual(
    temporalConnectionOptions('t:7233', { TRL_TEMPORAL_ADDRESS: 't:7233', TRL_TEMPORAL_TLS_CA_FILE: '  ' }),
    { address: 't:7233' },
    'a blank value is unset',
  );
});

test('mTLS files are read; an API key implies TLS', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trl-tls-'));
  for (const name of ['ca.pem', 'client.pem', 'client.key']) await writeFile(path.join(dir, name), `PEM ${name}`);
  const options = temporalConnectionOptions('t:7233', {
    TRL_TEMPORAL_ADDRESS: 't:7233',
    TRL_TEMPORAL_TLS_CA_FILE: path.join(dir, 'ca.pem'),
    TRL_TEMPORAL_TLS_CERT_FILE: path.join(dir, 'client.pem'),
    TRL_TEMPORAL_TLS_KEY_FILE: path.join(dir, 'client.key'),
    TRL_TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
  });
  assert.ok(options.tls && options.tls !== true);
  assert.equal(options.tls.serverRootCACertificate?.toString(), 'PEM ca.pem');
  assert.equal(options.tls.clientCertPair?.crt.toString(), 'PEM client.pem');
  assert.equal(options.tls.serverNameOverride, 'temporal.internal');
  assert.deepEqual(
    temporalConnectionOptions('c:7233', { TRL_TEMPORAL_ADDRESS: 'c:7233', TRL_TEMPORAL_API_KEY: 'key-1' }),
    { address: 'c:7233', tls: true, apiKey: 'key-1' },
  );
});

test('bad settings name the variable and the fix', () => {
  assert.throws(
    () => temporalConnectionOptions('127.0.0.1:7233', { TRL_TEMPORAL_API_KEY: 'k' }),
    /set TRL_TEMPORAL_ADDRESS too/,
  );
  assert.throws(
    () => temporalConnectionOptions('t:7233', { TRL_TEMPORAL_ADDRESS: 't:7233', TRL_TEMPORAL_TLS_CERT_FILE: '/x.pem' }),
    /TRL_TEMPORAL_TLS_CERT_FILE and TRL_TEMPORAL_TLS_KEY_FILE go together/,
  );
  assert.throws(
    () =>
      temporalConnectionOptions('t:7233', {
        TRL_TEMPORAL_ADDRESS: 't:7233',
        TRL_TEMPORAL_TLS_CA_FILE: '/no/such/ca.pem',
      }),
    /TRL_TEMPORAL_TLS_CA_FILE=\/no\/such\/ca\.pem cannot be read .*give the path of a PEM file/,
  );
});
