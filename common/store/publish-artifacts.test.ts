// Publishing a result's artifacts: the references are found in any result shape (bounded), and
// with a real S3-compatible server (moto) each is stored under its hash; on the file store nothing
// is copied; a file changed after it was recorded is reported, never stored under the old hash.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { writeArtifact } from '../write-artifact.ts';
import { artifactRefsIn, publishArtifacts } from './publish-artifacts.ts';
import { FileBlobStore } from './file-blob-store.ts';
import { openBlobStore } from './open-blob-store.ts';
import { createS3Client } from './s3-blob-store.ts';
import { storeConfigFromEnvironment, type S3StoreConfig } from './store-config.ts';
import { installedMotoServer, startS3TestServer, type S3TestServer } from '../../infra/s3-test-server.ts';

const hash = (digit: string) => digit.repeat(64);

test('artifact references are found at any depth, once per hash, and the walk is bounded', () => {
  const ref = (digit: string) => ({ path: `/x/${digit}`, sha256: hash(digit), sizeBytes: 1 });
  const result = {
    outputs: ref('a'),
    logs: [ref('b'), { nested: { deeper: ref('c') } }],
    again: ref('a'),
    notes: ['x'],
    size: 3,
  };
  assert.deepEqual(
    artifactRefsIn(result)
      .map((found) => found.sha256)
      .sort(),
    [hash('a'), hash('b'), hash('c')],
  );
  let deep: unknown = ref('d');
  for (let level = 0; level < 20; level += 1) deep = { level: deep };
  assert.deepEqual(artifactRefsIn(deep), [], 'past depth 8 nothing is read');
  assert.equal(
    artifactRefsIn(
      Array.from({ length: 5_000 }, (_, index) => ({
        path: '/p',
        sha256: index.toString(16).padStart(64, '0'),
        sizeBytes: 0,
      })),
    ).length,
    1_000,
  );
});

const motoServer = await installedMotoServer();

describe('publishing to a bucket', {
  skip: motoServer ? false : 'moto is not installed (./trl test installs it)',
}, () => {
  let server: S3TestServer;
  let config: S3StoreConfig;
  before(async () => {
    server = await startS3TestServer(motoServer!);
    config = storeConfigFromEnvironment({
      TRL_STORE: 's3',
      TRL_S3_BUCKET: 'trl-publish-test',
      TRL_S3_ENDPOINT: server.endpoint,
      AWS_ACCESS_KEY_ID: server.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
    }) as S3StoreConfig;
    const raw = createS3Client(config);
    await raw.send(new CreateBucketCommand({ Bucket: config.bucket }));
    raw.destroy();
  });
  after(async () => {
    await server?.close();
  });

  test('each artifact goes to the bucket by hash; a second publish finds them stored; a changed file is reported', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'trl-publish-'));
    const result = {
      report: await writeArtifact(path.join(dir, 'ctrf.json'), '{"results":{}}'),
      log: await writeArtifact(path.join(dir, 'verifier.log'), 'ran 3 tests\n'),
    };
    const store = openBlobStore(config);
    assert.deepEqual(await publishArtifacts(store, result), { published: 2, alreadyStored: 0, failed: [] });
    assert.equal((await store.get(result.report)).toString(), '{"results":{}}');
    assert.deepEqual(await publishArtifacts(store, result), { published: 0, alreadyStored: 2, failed: [] });

    const changed = await writeArtifact(path.join(dir, 'policy.log'), 'line 1\n');
    await appendFile(changed.path, 'line 2 written after the reference\n');
    const report = await publishArtifacts(store, { changed });
    assert.equal(report.published, 0);
    assert.match(report.failed[0]?.reason ?? '', /changed after it was recorded/);
    assert.equal(await store.has(changed), false);
  });
});

test('on the local file store nothing is copied', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'trl-publish-'));
  const artifact = await writeArtifact(path.join(dir, 'a.txt'), 'local');
  const store = new FileBlobStore();
  assert.deepEqual(await publishArtifacts(store, { artifact }), { published: 0, alreadyStored: 0, failed: [] });
  assert.equal(await store.has(artifact), false);
});
