// Blobs in an S3-compatible bucket, shared by every host: key `sha256/<ab>/<sha256>`. The bucket is
// trusted for nothing: every read is checked against the reference as on local disk.
import { createReadStream } from 'node:fs';
import {
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { ConfigError } from '../config-error.ts';
import { BlobMissingError, checkBlobRef, type BlobRef, type BlobStore } from './blob-store.ts';
import type { S3StoreConfig } from './store-config.ts';
import { hashBytes, hashFile, readChunkBytes } from './verified-read.ts';
import { VerifyingBlobStore } from './verifying-blob-store.ts';

/** One PutObject carries at most 5 GiB; larger blobs would need a multipart upload, which this store does not do yet.
 * */
export const maxSinglePutBytes = 5 * 1024 ** 3;
const connectionTimeoutMs = 5_000;
const requestTimeoutMs = 120_000;

export function blobKey(sha256: string): string {
  return `sha256/${sha256.slice(0, 2)}/${sha256}`;
}

export function createS3Client(config: S3StoreConfig): S3Client {
  // The SDK warns once per process that its 2027 releases need Node 22; the version is pinned in package.json.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // Only the checksums an operation requires: S3-compatible servers differ in the optional CRC headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: { connectionTimeout: connectionTimeoutMs, requestTimeout: requestTimeoutMs },
  });
}

/** No such object. A missing bucket is a configuration fault, never a missing blob (HEAD cannot tell them apart: no
 * body). */
function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException) || error.name === 'NoSuchBucket') return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata?.httpStatusCode === 404;
}

export class S3BlobStore extends VerifyingBlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly location: string;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly endpoint?: string,
  ) {
    super();
    this.location = `s3://${bucket}`;
  }

  static fromConfig(config: S3StoreConfig): S3BlobStore {
    return new S3BlobStore(createS3Client(config), config.bucket, config.endpoint);
  }

  async checkAccess(): Promise<void> {
    const server = this.endpoint ?? 'AWS S3';
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = error instanceof S3ServiceException ? error.$metadata?.httpStatusCode : undefined;
      if (status === 404)
        throw new ConfigError(
          `TRL_S3_BUCKET=${this.bucket}: no such bucket on ${server}; create it, or set TRL_S3_BUCKET to one that exists`,
        );
      if (status === 403)
        throw new ConfigError(
          `${server} refuses AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY for bucket ${this.bucket}; fix the keys or the bucket's policy`,
        );
      if (status === 301 || status === 400)
        throw new ConfigError(
          `bucket ${this.bucket} answers ${status} on ${server}: usually another region; set TRL_S3_REGION to the bucket's region`,
        );
      if (status === undefined && this.endpoint)
        throw new ConfigError(
          `TRL_S3_ENDPOINT=${this.endpoint} does not answer (${(error as Error).message}); start the server or fix TRL_S3_ENDPOINT`,
        );
      throw error;
    }
  }

  async put(content: Buffer | string): Promise<BlobRef> {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    const ref = hashBytes(bytes);
    await this.upload(ref, bytes);
    return ref;
  }

  async putFile(file: string): Promise<BlobRef> {
    const ref = await hashFile(file);
    if (ref.sizeBytes > maxSinglePutBytes)
      throw new Error(
        `${file} is ${ref.sizeBytes} bytes; the S3 store uploads at most ${maxSinglePutBytes} bytes in one object`,
      );
    await this.upload(ref, createReadStream(file, { highWaterMark: readChunkBytes }));
    return ref;
  }

  async has(ref: BlobRef): Promise<boolean> {
    checkBlobRef(ref);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: blobKey(ref.sha256) }));
      return head.ContentLength === ref.sizeBytes;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  private async upload(ref: BlobRef, body: Buffer | NodeJS.ReadableStream): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: blobKey(ref.sha256),
        Body: body as Buffer,
        ContentLength: ref.sizeBytes,
        ContentType: 'application/octet-stream',
        // AWS S3 and MinIO refuse an upload whose bytes do not hash to this (moto does not check it;
        // the read-side check below is what holds everywhere).
        ChecksumSHA256: Buffer.from(ref.sha256, 'hex').toString('base64'),
      }),
    );
  }

  protected async open(ref: BlobRef): Promise<AsyncIterable<Uint8Array>> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: blobKey(ref.sha256) }));
      if (!answer.Body) throw new Error(`${this.location} answered GetObject for ${ref.sha256} with no body`);
      return answer.Body as AsyncIterable<Uint8Array>;
    } catch (error) {
      if (isNotFound(error)) throw new BlobMissingError(ref.sha256, this.location);
      throw error;
    }
  }
}
