// One contract, run against both stores: the local files and an S3 bucket on a real S3-compatible
// server (moto's, started here on 127.0.0.1). Tampering goes behind the store's back, to the file or
// the object itself, and the read must refuse it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createServer, type AddressInfo } from 'node:net';
import { blobFile } from '../data-layout.ts';
import { ConfigError } from '../config-error.ts';
import { BlobCorruptError, BlobMissingError, BlobTooLargeError, type BlobRef, type BlobStore } from './blob-store.ts';
import { FileBlobStore } from './file-blob-store.ts';
import { openBlobStore } from './open-blob-store.ts';
import { blobKey, createS3Client } from './s3-blob-store.ts';
import { storeConfigFromEnvironment, type S3StoreConfig } from './store-config.ts';
import { installedMotoServer, startS3TestServer, type S3TestServer } from '../../infra/s3-test-server.ts';

interface Harness {
  store: BlobStore;
  /** Replaces the stored bytes of `sha256` directly (a bit flip on disk, an overwrite in the bucket). */
  tamper(sha256: string, bytes: Buffer): Promise<void>;
  remove(sha256: string): Promise<void>;
}

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function runContract(name: string, harness: () => Harness, skip: string | false) {
  describe(`${name} blob store`, { skip }, () => {
    let workDir: string;
    before(async () => {
      workDir = await mkdtemp(path.join(tmpdir(), 'trl-blob-store-'));
    });
    after(async () => {
      await rm(workDir, { recursive: true, force: true });
    });

    test('put returns the hash and size, has finds it, get returns the same bytes', async () => {
      const { store } = harness();
      await store.checkAccess();
      const bytes = randomBytes(4096);
      const ref = await store.put(bytes);
      assert.deepEqual(ref, { sha256: sha256Of(bytes), sizeBytes: 4096 });
      assert.equal(await store.has(ref), true);
      assert.deepEqual(await store.get(ref), bytes);
      // A string is its UTF-8 bytes; an ArtifactRef (with its path) is a reference as it stands.
      const text = `pack ${randomBytes(8).toString('hex')} ✓`;
      const textRef = await store.put(text);
      assert.equal(textRef.sha256, sha256Of(Buffer.from(text)));
      assert.equal((await store.get({ path: '/elsewhere', ...textRef } as BlobRef)).toString('utf8'), text);
      const empty = await store.put(Buffer.alloc(0));
      assert.deepEqual(await store.get(empty), Buffer.alloc(0));
    });

    test('a missing blob: has is false, get and getToFile name the hash', async () => {
      const { store } = harness();
      const absent = { sha256: sha256Of(randomBytes(32)), sizeBytes: 10 };
      assert.equal(await store.has(absent), false);
      await assert.rejects(
        store.get(absent),
        (error: unknown) => error instanceof BlobMissingError && error.message.includes(absent.sha256),
      );
      const target = path.join(workDir, 'missing.bin');
      await assert.rejects(store.getToFile(absent, target), BlobMissingError);
      assert.equal(existsSync(target), false);
      // Stored, then removed behind the store's back.
      const ref = await store.put(randomBytes(100));
      await harness().remove(ref.sha256);
      assert.equal(await store.has(ref), false);
      await assert.rejects(store.get(ref), BlobMissingError);
    });

    test('has compares the size: the right hash with another size is not the blob', async () => {
      const { store } = harness();
      const ref = await store.put(randomBytes(300));
      assert.equal(await store.has({ ...ref, sizeBytes: 301 }), false);
    });

    test('tampered bytes of the same length are refused on read, naming the hash, never returned', async () => {
      const { store, tamper } = harness();
      const bytes = randomBytes(2048);
      const ref = await store.put(bytes);
      const flipped = Buffer.from(bytes);
      flipped[1000]! ^= 0x01;
      await tamper(ref.sha256, flipped);
      assert.equal(await store.has(ref), true, 'has is a cheap presence check, not a hash check');
      await assert.rejects(
        store.get(ref),
        (error: unknown) =>
          error instanceof BlobCorruptError && error.message.includes(ref.sha256) && error.sha256 === ref.sha256,
      );
      const target = path.join(workDir, 'tampered.bin');
      await assert.rejects(store.getToFile(ref, target), BlobCorruptError);
      assert.equal(existsSync(target), false, 'no file appears from a refused read');
      // Putting the right bytes again repairs it.
      await store.put(bytes);
      assert.deepEqual(await store.get(ref), bytes);
    });

    test('a stored object longer or shorter than its reference is refused', async () => {
      const { store, tamper } = harness();
      const bytes = randomBytes(1000);
      const ref = await store.put(bytes);
      // 8 MiB behind a 1000-byte reference: the read stops past 1000 bytes instead of taking it all in.
      await tamper(ref.sha256, Buffer.concat([bytes, Buffer.alloc(8 * 1024 * 1024)]));
      await assert.rejects(store.get(ref), /longer than the referenced 1000 bytes/);
      await tamper(ref.sha256, bytes.subarray(0, 999));
      await assert.rejects(store.get(ref), /has 999 bytes, the reference 1000/);
    });

    test('get refuses a blob over its size bound before reading; getToFile streams it instead', async () => {
      const { store } = harness();
      const bytes = randomBytes(3 * 1024 * 1024 + 17);
      const ref = await store.put(bytes);
      await assert.rejects(
        store.get(ref, { maxBytes: 1024 * 1024 }),
        (error: unknown) => error instanceof BlobTooLargeError && error.message.includes(ref.sha256),
      );
      // The bound applies to the reference, so a reference claiming a huge size is refused with no request at all.
      await assert.rejects(store.get({ sha256: ref.sha256, sizeBytes: 2 ** 40 }), BlobTooLargeError);
      const target = path.join(workDir, 'large.bin');
      await store.getToFile(ref, target);
      assert.deepEqual(await readFile(target), bytes);
    });

    test('putFile streams a file in under the same reference as put', async () => {
      const { store } = harness();
      const bytes = randomBytes(2 * 1024 * 1024 + 5);
      const source = path.join(workDir, 'source.bin');
      await writeFile(source, bytes);
      const ref = await store.putFile(source);
      assert.deepEqual(ref, { sha256: sha256Of(bytes), sizeBytes: bytes.length });
      assert.deepEqual(await store.get(ref), bytes);
    });

    test('a reference that is not a sha256 names no file or key', async () => {
      const { store } = harness();
      await assert.rejects(store.get({ sha256: '../../etc/passwd', sizeBytes: 1 }), /not a sha256 hex digest/);
      await assert.rejects(store.has({ sha256: 'A'.repeat(64), sizeBytes: 1 }), /not a sha256 hex digest/);
      await assert.rejects(store.get({ sha256: sha256Of(Buffer.from('x')), sizeBytes: -1 }), /is not a size/);
    });
  });
}

// The local store, under this test's TRL_DATA_DIR.
const fileStore = new FileBlobStore();
runContract(
  'file',
  () => ({
    store: fileStore,
    tamper: (sha256, bytes) => writeFile(blobFile(sha256), bytes),
    remove: (sha256) => rm(blobFile(sha256)),
  }),
  false,
);

// The S3 store against moto's server; skipped only when the server is not installed.
const motoServer = await installedMotoServer();
let server: S3TestServer | undefined;
let s3: { store: BlobStore; raw: S3Client; config: S3StoreConfig } | undefined;
const bucket = 'trl-blob-store-test';

if (motoServer) {
  before(async () => {
    server = await startS3TestServer(motoServer);
    // Through the environment parser, as a worker would be configured.
    const config = storeConfigFromEnvironment({
      TRL_STORE: 's3',
      TRL_S3_BUCKET: bucket,
      TRL_S3_ENDPOINT: server.endpoint,
      AWS_ACCESS_KEY_ID: server.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
    }) as S3StoreConfig;
    const raw = createS3Client(config);
    await raw.send(new CreateBucketCommand({ Bucket: bucket }));
    s3 = { store: openBlobStore(config), raw, config };
  });
  after(async () => {
    s3?.raw.destroy();
    await server?.close();
  });
}

runContract(
  's3',
  () => ({
    store: s3!.store,
    tamper: async (sha256, bytes) => {
      await s3!.raw.send(new PutObjectCommand({ Bucket: bucket, Key: blobKey(sha256), Body: bytes }));
    },
    remove: async (sha256) => {
      await s3!.raw.send(new DeleteObjectCommand({ Bucket: bucket, Key: blobKey(sha256) }));
    },
  }),
  motoServer
    ? false
    : 'moto_server is not installed: `./trl test common/store` installs it (infra/bootstrap.ts bootstrapForTests → infra/s3-test-server.ts ensureMotoServer, a venv under .cache)',
);

test('two hosts share the bucket: a blob one puts, the other reads', {
  skip: motoServer ? false : 'moto_server is not installed',
}, async () => {
  const first = openBlobStore(s3!.config);
  const second = openBlobStore(s3!.config);
  const bytes = randomBytes(5000);
  const ref = await first.put(bytes);
  assert.equal(await second.has(ref), true);
  assert.deepEqual(await second.get(ref), bytes);
  assert.equal(second.location, `s3://${bucket}`);
});

test('a worker starting on a wrong bucket or a dead endpoint is told which setting to fix', {
  skip: motoServer ? false : 'moto_server is not installed',
}, async () => {
  await assert.rejects(
    openBlobStore({ ...s3!.config, bucket: 'no-such-bucket-here' }).checkAccess(),
    (error: unknown) =>
      error instanceof ConfigError &&
      /TRL_S3_BUCKET=no-such-bucket-here: no such bucket on http:\/\/127\.0\.0\.1:\d+; create it/.test(error.message),
  );
  const closedPort = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const deadEndpoint = `http://127.0.0.1:${closedPort}`;
  await assert.rejects(
    openBlobStore({ ...s3!.config, endpoint: deadEndpoint }).checkAccess(),
    (error: unknown) =>
      error instanceof ConfigError && error.message.startsWith(`TRL_S3_ENDPOINT=${deadEndpoint} does not answer`),
  );
});

test('the bucket must exist: a store on a missing bucket fails loudly, not as a missing blob', {
  skip: motoServer ? false : 'moto_server is not installed',
}, async () => {
  const store = openBlobStore({ ...s3!.config, bucket: 'no-such-bucket-here' });
  const ref = { sha256: sha256Of(Buffer.from('x')), sizeBytes: 1 };
  await assert.rejects(
    store.get(ref),
    (error: unknown) => !(error instanceof BlobMissingError) && /NoSuchBucket|bucket/i.test(String(error)),
  );
});
