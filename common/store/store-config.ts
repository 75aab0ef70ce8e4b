// Which blob store this process uses, from the environment, checked with zod at the edge: every
// problem names its variable and the fix, and no secret value is ever echoed back.
import { z } from 'zod';
import { ConfigError } from '../config-error.ts';
import { settingsShape } from '../settings/setting.ts';
import { storeSettings } from '../settings/store-settings.ts';

export interface S3StoreConfig {
  kind: 's3';
  bucket: string;
  /** An S3-compatible server (MinIO, moto, Ceph, R2…); absent: AWS S3 itself. */
  endpoint: string | undefined;
  region: string;
  /** Path-style URLs (`endpoint/bucket/key`), which S3-compatible servers expect; AWS gets virtual hosts. */
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}
export type StoreConfig = { kind: 'file' } | S3StoreConfig;

const environmentSchema = z
  .object(
    settingsShape(storeSettings, [
      'TRL_STORE',
      'TRL_S3_BUCKET',
      'TRL_S3_ENDPOINT',
      'TRL_S3_REGION',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
    ]),
  )
  .superRefine((env, context) => {
    const problem = (variable: string, message: string) =>
      context.addIssue({ code: 'custom', path: [variable], message });
    if (env.TRL_STORE !== 's3') {
      for (const variable of ['TRL_S3_BUCKET', 'TRL_S3_ENDPOINT', 'TRL_S3_REGION'] as const) {
        if (env[variable] !== undefined)
          problem(
            variable,
            `${variable} is set but TRL_STORE is not \`s3\` (the local store would be used and the bucket ignored); set TRL_STORE=s3, or unset ${variable}`,
          );
      }
      return;
    }
    if (!env.TRL_S3_BUCKET)
      problem(
        'TRL_S3_BUCKET',
        'TRL_STORE=s3 needs TRL_S3_BUCKET, the bucket the blobs go in (it must exist), e.g. TRL_S3_BUCKET=trl-blobs',
      );
    if (!env.TRL_S3_ENDPOINT && !env.TRL_S3_REGION)
      problem(
        'TRL_S3_REGION',
        "TRL_STORE=s3 on AWS S3 (no TRL_S3_ENDPOINT) needs TRL_S3_REGION, the bucket's region, e.g. TRL_S3_REGION=eu-central-1",
      );
    // Explicit keys only: the SDK's fallback chain would otherwise ask the instance metadata address.
    for (const variable of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const) {
      if (!env[variable])
        problem(
          variable,
          `TRL_STORE=s3 needs ${variable} (with ${variable === 'AWS_ACCESS_KEY_ID' ? 'AWS_SECRET_ACCESS_KEY' : 'AWS_ACCESS_KEY_ID'}; AWS_SESSION_TOKEN for temporary keys): the bucket's access key`,
        );
    }
  });

/** The store settings of this environment; a ConfigError naming every wrong variable otherwise. */
export function storeConfigFromEnvironment(environment: NodeJS.ProcessEnv = process.env): StoreConfig {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => issue.message);
    throw new ConfigError(`blob store configuration: ${[...new Set(problems)].join('; ')}`);
  }
  const env = parsed.data;
  if (env.TRL_STORE !== 's3') return { kind: 'file' };
  return {
    kind: 's3',
    bucket: env.TRL_S3_BUCKET!,
    endpoint: env.TRL_S3_ENDPOINT,
    // S3-compatible servers accept any region name; us-east-1 is the one they all default to.
    region: env.TRL_S3_REGION ?? 'us-east-1',
    forcePathStyle: env.TRL_S3_ENDPOINT !== undefined,
    credentials: {
      accessKeyId: env.AWS_ACCESS_KEY_ID!,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY!,
      ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    },
  };
}
