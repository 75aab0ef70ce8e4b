// Which blob store holds packs, bundles and artifacts by sha256: this host's disk or a bucket every
// host shares (read by common/store/store-config.ts, which checks how they go together).
import { z } from 'zod';
import { optionalText, settingTable } from './setting.ts';

export const storeSettings = settingTable({
  TRL_STORE: {
    schema: optionalText.pipe(
      z
        .enum(['file', 's3'], {
          error: (issue) =>
            `TRL_STORE must be \`file\` (this host's disk, the default) or \`s3\` (a shared bucket), not ${JSON.stringify(String(issue.input).slice(0, 40))}; unset it for the local store`,
        })
        .optional(),
    ),
    defaultText: '`file`',
    description:
      'The blob store: `file` (`.data/blobs/`, this host) or `s3` (a bucket every host shares). A bad value, a `TRL_S3_*` setting without `s3`, or (at worker start) a bucket that is missing or refuses the keys stops the worker naming the setting to fix.',
  },
  TRL_S3_BUCKET: {
    schema: optionalText.pipe(
      z
        .string()
        .regex(
          /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
          'TRL_S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, dots or hyphens, e.g. TRL_S3_BUCKET=trl-blobs',
        )
        .optional(),
    ),
    description: 'The bucket (required with `TRL_STORE=s3`; it must exist).',
  },
  TRL_S3_ENDPOINT: {
    schema: optionalText.pipe(
      z
        .url({
          protocol: /^https?$/,
          error:
            'TRL_S3_ENDPOINT must be an http:// or https:// URL of an S3-compatible server, e.g. http://127.0.0.1:9000; unset it for AWS S3',
        })
        .optional(),
    ),
    defaultText: 'unset: AWS S3',
    description: 'An S3-compatible server (MinIO, Ceph, R2, …); path-style URLs are used with it.',
  },
  TRL_S3_REGION: {
    schema: optionalText.pipe(
      z
        .string()
        .regex(/^[a-z0-9-]{2,32}$/, 'TRL_S3_REGION must be a region name such as us-east-1')
        .optional(),
    ),
    defaultText: '`us-east-1` with an endpoint',
    description: "The bucket's region (required on AWS S3, that is without `TRL_S3_ENDPOINT`).",
  },
  AWS_ACCESS_KEY_ID: {
    schema: optionalText,
    secret: true,
    description:
      "The bucket's access key id (required with `TRL_STORE=s3`). Instance-role credentials are never looked up: that would dial the metadata address.",
  },
  AWS_SECRET_ACCESS_KEY: {
    schema: optionalText,
    secret: true,
    description: "The bucket's secret access key (required with `TRL_STORE=s3`); never logged.",
  },
  AWS_SESSION_TOKEN: {
    schema: optionalText,
    secret: true,
    description: 'The session token of temporary keys.',
  },
});
