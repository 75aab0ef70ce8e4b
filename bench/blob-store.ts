// Put and verified get through both blob stores: the local files and an S3 bucket on moto's server
// (127.0.0.1; moto is a Python test double, so its figures say nothing of a production bucket's).
// Small blobs (a pack) by count per second, a large one (an outputs archive) in MB/s. A table on stdout.
//   TRL_DATA_DIR=/tmp/bench-data node --import tsx bench/blob-store.ts
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import type { BlobStore } from '../common/store/blob-store.ts';
import { FileBlobStore } from '../common/store/file-blob-store.ts';
import { S3BlobStore, createS3Client } from '../common/store/s3-blob-store.ts';
import { storeConfigFromEnvironment, type S3StoreConfig } from '../common/store/store-config.ts';
import { installedMotoServer, startS3TestServer } from '../infra/s3-test-server.ts';

const smallBytes = 8 * 1024;
const smallCount = 200;
const largeBytes = 64 * 1024 * 1024;

async function measure(name: string, store: BlobStore, workDir: string): Promise<string> {
  const small = Array.from({ length: smallCount }, () => randomBytes(smallBytes));
  let started = performance.now();
  const refs = [];
  for (const bytes of small) refs.push(await store.put(bytes));
  const smallPutPerSec = smallCount / ((performance.now() - started) / 1000);
  started = performance.now();
  for (const ref of refs) await store.get(ref);
  const smallGetPerSec = smallCount / ((performance.now() - started) / 1000);

  const large = randomBytes(largeBytes);
  started = performance.now();
  const largeRef = await store.put(large);
  const largePutMBps = largeBytes / 1e6 / ((performance.now() - started) / 1000);
  started = performance.now();
  await store.get(largeRef, { maxBytes: largeBytes });
  const largeGetMBps = largeBytes / 1e6 / ((performance.now() - started) / 1000);
  started = performance.now();
  await store.getToFile(largeRef, path.join(workDir, `${name}.bin`));
  const largeFileMBps = largeBytes / 1e6 / ((performance.now() - started) / 1000);
  const cells = [smallPutPerSec, smallGetPerSec, largePutMBps, largeGetMBps, largeFileMBps].map((value) =>
    value.toFixed(0).padStart(8),
  );
  return `| ${name.padEnd(12)} | ${cells.join(' | ')} |`;
}

const workDir = await mkdtemp(path.join(tmpdir(), 'trl-blob-bench-'));
const rows = [
  '| store        | 8 KiB put/s | 8 KiB get/s | 64 MiB put MB/s | 64 MiB get MB/s | 64 MiB getToFile MB/s |',
  '|---|---|---|---|---|---|',
];
try {
  rows.push(await measure('file', new FileBlobStore(), workDir));
  const moto = await installedMotoServer();
  if (!moto)
    rows.push('| s3 (moto)    | skipped: moto_server is not installed (`./trl test common/store` installs it) |');
  else {
    const server = await startS3TestServer(moto);
    try {
      const config = storeConfigFromEnvironment({
        TRL_STORE: 's3',
        TRL_S3_BUCKET: 'trl-bench',
        TRL_S3_ENDPOINT: server.endpoint,
        AWS_ACCESS_KEY_ID: server.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
      }) as S3StoreConfig;
      const client = createS3Client(config);
      await client.send(new CreateBucketCommand({ Bucket: config.bucket }));
      rows.push(await measure('s3 (moto)', new S3BlobStore(client, config.bucket), workDir));
      client.destroy();
    } finally {
      await server.close();
    }
  }
} finally {
  await rm(workDir, { recursive: true, force: true });
}
console.log(rows.join('\n'));
