// The package registries this host is configured with (Go's GOPROXY / GOSUMDB, npm's registry, pip's
// index), read once from the tools' own settings: a scenario build fetches toolchains from the same
// registries the host uses, and no registry host is written into the project.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { runCommand } from '../common/run-command.ts';
import { splitCaBundle, type RegistryEndpoints } from './dockerfile-rewrite.ts';

async function output(file: string, args: string[]): Promise<string | undefined> {
  try {
    const result = await runCommand(file, args, { allowFailure: true });
    const text = result.stdout.trim();
    return result.exitCode === 0 && text && text !== 'undefined' ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The first proxy URL of a GOPROXY list ("https://a,direct" → "https://a"). */
export function firstGoProxy(value: string | undefined): string | undefined {
  return value
    ?.split(/[,|]/)
    .map((entry) => entry.trim())
    .find((entry) => /^https?:\/\//.test(entry))
    ?.replace(/\/$/, '');
}

let cached: Promise<RegistryEndpoints> | undefined;

export function hostRegistryEndpoints(): Promise<RegistryEndpoints> {
  cached ??= (async () => {
    const [goProxy, goSumDb, npmRegistry, pipIndexUrl] = await Promise.all([
      output('go', ['env', 'GOPROXY']).then((value) => firstGoProxy(value ?? process.env.GOPROXY)),
      output('go', ['env', 'GOSUMDB']).then((value) => value ?? process.env.GOSUMDB),
      output('npm', ['config', 'get', 'registry']).then((value) => value ?? process.env.NPM_CONFIG_REGISTRY),
      Promise.resolve(process.env.PIP_INDEX_URL),
    ]);
    return {
      ...(goProxy ? { goProxy } : {}),
      ...(goSumDb ? { goSumDb } : {}),
      ...(npmRegistry ? { npmRegistry: npmRegistry.replace(/\/$/, '') } : {}),
      ...(pipIndexUrl ? { pipIndexUrl } : {}),
    };
  })();
  return cached;
}

/**
 * The certificates of the host's CA bundle that Debian's ca-certificates does not ship (an intercepting
 * proxy's CA, a site CA): the scenario build adds these to the image's store. On a host without
 * Debian's store to compare with, the whole bundle.
 */
export async function hostExtraCertificates(): Promise<string[]> {
  const bundleFile = process.env.SSL_CERT_FILE ?? '/etc/ssl/certs/ca-certificates.crt';
  const bundle = splitCaBundle(await readFile(bundleFile, 'utf8').catch(() => ''));
  const shipped = new Set<string>();
  const shippedDir = '/usr/share/ca-certificates';
  const files = await readdir(shippedDir, { recursive: true }).catch(() => [] as string[]);
  for (const file of files.filter((name) => name.endsWith('.crt'))) {
    const text = await readFile(path.join(shippedDir, file), 'utf8').catch(() => '');
    for (const pem of splitCaBundle(text)) shipped.add(pem.replace(/\s/g, ''));
  }
  if (shipped.size === 0) return bundle;
  return bundle.filter((pem) => !shipped.has(pem.replace(/\s/g, '')));
}
