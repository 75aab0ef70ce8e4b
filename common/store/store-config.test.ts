import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../config-error.ts';
import { storeConfigFromEnvironment } from './store-config.ts';

const keys = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'very-secret-value' };

function problemOf(environment: NodeJS.ProcessEnv): string {
  try {
    storeConfigFromEnvironment(environment);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `a ConfigError, not ${String(error)}`);
    return error.message;
  }
  assert.fail('the configuration was accepted');
}

test('no setting (or an empty one) is the local file store', () => {
  assert.deepEqual(storeConfigFromEnvironment({}), { kind: 'file' });
  assert.deepEqual(storeConfigFromEnvironment({ TRL_STORE: '' }), { kind: 'file' });
  assert.deepEqual(storeConfigFromEnvironment({ TRL_STORE: 'file' }), { kind: 'file' });
});

test('an S3-compatible endpoint gets path-style URLs and the default region', () => {
  const config = storeConfigFromEnvironment({
    TRL_STORE: 's3',
    TRL_S3_BUCKET: 'trl-blobs',
    TRL_S3_ENDPOINT: 'http://127.0.0.1:9000',
    ...keys,
  });
  assert.deepEqual(config, {
    kind: 's3',
    bucket: 'trl-blobs',
    endpoint: 'http://127.0.0.1:9000',
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'very-secret-value' },
  });
});

test('AWS S3 itself (no endpoint) uses virtual-hosted URLs and needs a region', () => {
  const config = storeConfigFromEnvironment({
    TRL_STORE: 's3',
    TRL_S3_BUCKET: 'trl-blobs',
    TRL_S3_REGION: 'eu-central-1',
    AWS_SESSION_TOKEN: 'token',
    ...keys,
  });
  assert.equal(config.kind === 's3' && config.forcePathStyle, false);
  assert.equal(config.kind === 's3' && config.credentials.sessionToken, 'token');
  assert.match(
    problemOf({ TRL_STORE: 's3', TRL_S3_BUCKET: 'trl-blobs', ...keys }),
    /TRL_S3_REGION.*e\.g\. TRL_S3_REGION=/,
  );
});

test('each bad setting is named with its fix', () => {
  assert.match(problemOf({ TRL_STORE: 'minio' }), /TRL_STORE must be `file`.*or `s3`.*not "minio"/);
  assert.match(
    problemOf({ TRL_STORE: 's3', TRL_S3_ENDPOINT: 'http://127.0.0.1:9000', ...keys }),
    /needs TRL_S3_BUCKET/,
  );
  assert.match(
    problemOf({ TRL_STORE: 's3', TRL_S3_BUCKET: 'Bad_Bucket', TRL_S3_ENDPOINT: 'http://127.0.0.1:9000', ...keys }),
    /TRL_S3_BUCKET must be a bucket name/,
  );
  assert.match(
    problemOf({ TRL_STORE: 's3', TRL_S3_BUCKET: 'trl-blobs', TRL_S3_ENDPOINT: 'ftp://127.0.0.1', ...keys }),
    /TRL_S3_ENDPOINT must be an http:\/\/ or https:\/\/ URL/,
  );
  assert.match(
    problemOf({ TRL_STORE: 's3', TRL_S3_BUCKET: 'trl-blobs', TRL_S3_ENDPOINT: 'not a url', ...keys }),
    /TRL_S3_ENDPOINT/,
  );
});

test('both access keys are required, and no secret is ever echoed', () => {
  const message = problemOf({
    TRL_STORE: 's3',
    TRL_S3_BUCKET: 'trl-blobs',
    TRL_S3_ENDPOINT: 'http://127.0.0.1:9000',
    AWS_SECRET_ACCESS_KEY: 'very-secret-value',
  });
  assert.match(message, /needs AWS_ACCESS_KEY_ID/);
  assert.ok(!message.includes('very-secret-value'));
  assert.match(
    problemOf({
      TRL_STORE: 's3',
      TRL_S3_BUCKET: 'trl-blobs',
      TRL_S3_ENDPOINT: 'http://127.0.0.1:9000',
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    }),
    /needs AWS_SECRET_ACCESS_KEY/,
  );
});

test('bucket settings without TRL_STORE=s3 are an error, not a silently local store', () => {
  assert.match(
    problemOf({ TRL_S3_BUCKET: 'trl-blobs' }),
    /TRL_S3_BUCKET is set but TRL_STORE is not `s3`.*set TRL_STORE=s3/,
  );
  assert.match(
    problemOf({ TRL_STORE: 'file', TRL_S3_ENDPOINT: 'http://127.0.0.1:9000' }),
    /TRL_S3_ENDPOINT is set but TRL_STORE is not `s3`/,
  );
});

test('several problems are reported together', () => {
  const message = problemOf({ TRL_STORE: 's3' });
  for (const variable of ['TRL_S3_BUCKET', 'TRL_S3_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'])
    assert.ok(message.includes(variable), `${variable} in ${message}`);
});
