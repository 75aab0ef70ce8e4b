// `--upstream sim-fleet|local-model` of eval, serve and up: which upstream this process's worker or
// gateway calls when no provider is configured (TRL_UPSTREAM_BASE_URL). It sets TRL_UPSTREAM, which
// workers/worker-config.ts reads, so a worker started by this command and one started with the
// variable behave alike.
import { UsageError } from './usage-error.ts';

export const upstreamNames = ['sim-fleet', 'local-model'] as const;
export type UpstreamName = (typeof upstreamNames)[number];

export function parseUpstreamOption(value: string | undefined): UpstreamName | undefined {
  if (value === undefined) return undefined;
  if (!(upstreamNames as readonly string[]).includes(value))
    throw new UsageError(`--upstream must be one of ${upstreamNames.join(', ')}; got "${value}"`);
  return value as UpstreamName;
}

/** Sets TRL_UPSTREAM for this process; a provider's base URL and --upstream exclude each other. */
export function applyUpstreamOption(value: string | undefined, env: NodeJS.ProcessEnv = process.env): void {
  const upstream = parseUpstreamOption(value);
  if (upstream === undefined) return;
  if (env.TRL_UPSTREAM_BASE_URL)
    throw new UsageError(
      `--upstream ${upstream} and TRL_UPSTREAM_BASE_URL (a provider) exclude each other; unset TRL_UPSTREAM_BASE_URL`,
    );
  env.TRL_UPSTREAM = upstream;
}
