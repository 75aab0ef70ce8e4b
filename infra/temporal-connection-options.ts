// How every process of the validator connects to Temporal: the address, and for an external
// Temporal that asks for them, TLS (a CA to trust, a client certificate for mTLS, a server name)
// and an API key (Temporal Cloud; a key implies TLS). One owner, so the worker, its client and the
// command line always connect the same way. Settings are checked with zod; a file that cannot be
// read is an error naming its variable.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { TLSConfig } from '@temporalio/client';
import { ConfigError } from '../common/config-error.ts';
import { settingsShape } from '../common/settings/setting.ts';
import { temporalSettings } from '../common/settings/temporal-settings.ts';

const settingsSchema = z.object(
  settingsShape(temporalSettings, [
    'TRL_TEMPORAL_ADDRESS',
    'TRL_TEMPORAL_TLS_CA_FILE',
    'TRL_TEMPORAL_TLS_CERT_FILE',
    'TRL_TEMPORAL_TLS_KEY_FILE',
    'TRL_TEMPORAL_TLS_SERVER_NAME',
    'TRL_TEMPORAL_API_KEY',
  ]),
);

export interface TemporalConnectionOptions {
  address: string;
  tls?: TLSConfig | true;
  apiKey?: string;
}

function readPem(variable: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new ConfigError(
      `${variable}=${file} cannot be read (${error instanceof Error ? error.message : String(error)}); give the path of a PEM file`,
    );
  }
}

/** The options for `Connection.connect` / `NativeConnection.connect` to `address`, with the TLS and API key settings of
 * `env`. */
export function temporalConnectionOptions(
  address: string,
  env: NodeJS.ProcessEnv = process.env,
): TemporalConnectionOptions {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success)
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  const settings = parsed.data;
  const tlsWanted = Boolean(
    settings.TRL_TEMPORAL_TLS_CA_FILE ||
      settings.TRL_TEMPORAL_TLS_CERT_FILE ||
      settings.TRL_TEMPORAL_TLS_KEY_FILE ||
      settings.TRL_TEMPORAL_TLS_SERVER_NAME ||
      settings.TRL_TEMPORAL_API_KEY,
  );
  if (!tlsWanted) return { address };
  if (!settings.TRL_TEMPORAL_ADDRESS)
    throw new ConfigError(
      'TRL_TEMPORAL_TLS_* and TRL_TEMPORAL_API_KEY are for an external Temporal: set TRL_TEMPORAL_ADDRESS too (the embedded dev server speaks plain gRPC)',
    );
  if (Boolean(settings.TRL_TEMPORAL_TLS_CERT_FILE) !== Boolean(settings.TRL_TEMPORAL_TLS_KEY_FILE)) {
    throw new ConfigError(
      'TRL_TEMPORAL_TLS_CERT_FILE and TRL_TEMPORAL_TLS_KEY_FILE go together: set both (mTLS) or neither',
    );
  }
  const tls: TLSConfig = {
    ...(settings.TRL_TEMPORAL_TLS_CA_FILE
      ? { serverRootCACertificate: readPem('TRL_TEMPORAL_TLS_CA_FILE', settings.TRL_TEMPORAL_TLS_CA_FILE) }
      : {}),
    ...(settings.TRL_TEMPORAL_TLS_CERT_FILE && settings.TRL_TEMPORAL_TLS_KEY_FILE
      ? {
          clientCertPair: {
            crt: readPem('TRL_TEMPORAL_TLS_CERT_FILE', settings.TRL_TEMPORAL_TLS_CERT_FILE),
            key: readPem('TRL_TEMPORAL_TLS_KEY_FILE', settings.TRL_TEMPORAL_TLS_KEY_FILE),
          },
        }
      : {}),
    ...(settings.TRL_TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: settings.TRL_TEMPORAL_TLS_SERVER_NAME } : {}),
  };
  return {
    address,
    tls: Object.keys(tls).length > 0 ? tls : true,
    ...(settings.TRL_TEMPORAL_API_KEY ? { apiKey: settings.TRL_TEMPORAL_API_KEY } : {}),
  };
}
