// The shared store in a real path: fetchPack puts the pack and its bundle in the bucket, and a
// sandbox host without the local files (they are removed here) reads the policy from the bucket,
// verified; a tampered object is `artifact_corrupt`, naming the hash. Against moto's S3 server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { examplesDir } from '../common/data-layout.ts';
import { storeConfigFromEnvironment, type S3StoreConfig } from '../common/store/store-config.ts';
import { blobKey, createS3Client } from '../common/store/s3-blob-store.ts';
import { failureTypes } from '../contracts/failure-types.ts';
import { installedMotoServer, startS3TestServer, type S3TestServer } from '../infra/s3-test-server.ts';
import { fetchPack } from './pack-activities.ts';
import { policyOf } from './pack-policy.ts';

const motoServer = await installedMotoServer();
const skip = motoServer
  ? false
  : 'moto_server is not installed: `./trl test activities/pack-policy` installs it (infra/bootstrap.ts bootstrapForTests)';
const bucket = 'trl-pack-policy-test';
let server: S3TestServer | undefined;
let raw: S3Client | undefined;

before(async () => {
  if (!motoServer) return;
  server = await startS3TestServer(motoServer);
  // This process's shared store is opened from the environment on first use, as a worker's is.
  Object.assign(process.env, {
    TRL_STORE: 's3',
    TRL_S3_BUCKET: bucket,
    TRL_S3_ENDPOINT: server.endpoint,
    AWS_ACCESS_KEY_ID: server.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
  });
  raw = createS3Client(storeConfigFromEnvironment() as S3StoreConfig);
  await raw.send(new CreateBucketCommand({ Bucket: bucket }));
});

after(async () => {
  raw?.destroy();
  await server?.close();
});

test('a pack fetched on one host is read on another from the bucket, verified', { skip }, async () => {
  const ref = await fetchPack({ kind: 'directory', path: path.join(examplesDir, 'cheapest-model') });
  assert.equal(ref.kind, 'typescript');
  const bundleCode = await readFile(ref.bundle!.path, 'utf8');
  const skill = await readFile(path.join(examplesDir, 'cheapest-model', 'SKILL.md'), 'utf8');
  // The other host: no local pack store at all.
  await rm(ref.canonical.path);
  await rm(ref.bundle!.path);
  const read = await policyOf(ref);
  assert.equal(read.skill, skill);
  assert.deepEqual(read.policy, { kind: 'typescript', bundleCode });

  // The bucket's copy of the bundle swapped behind the store's back (same length, one byte off).
  const swapped = Buffer.from(bundleCode);
  swapped[0]! ^= 0x20;
  await raw!.send(new PutObjectCommand({ Bucket: bucket, Key: blobKey(ref.bundle!.sha256), Body: swapped }));
  await assert.rejects(
    policyOf(ref),
    (error: unknown) =>
      error instanceof ApplicationFailure &&
      error.type === failureTypes.artifactCorrupt &&
      error.nonRetryable &&
      error.message.includes(ref.bundle!.sha256),
  );
});
