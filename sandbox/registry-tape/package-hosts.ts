// The package hosts a rehearsal may fetch from: the public registries scenario builds use (PyPI and
// its file host, Debian, npm, the Go module proxy and checksum database, Maven Central, crates.io) and whatever
// registries this host is configured with (its Debian mirror, GOPROXY, npm registry, pip index).
// Only GETs to these, on the scheme's default port, leave through the recording proxy.
import { hostRegistryEndpoints } from '../registry-endpoints.ts';

export const publicPackageHosts = [
  'pypi.org',
  'files.pythonhosted.org',
  'deb.debian.org',
  'security.debian.org',
  'registry.npmjs.org',
  'proxy.golang.org',
  'sum.golang.org',
  'repo.maven.apache.org',
  'repo1.maven.org',
  // crates.io: the sparse index, the download API and the file host it redirects to.
  'index.crates.io',
  'crates.io',
  'static.crates.io',
];

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/** debianMirror: the Debian mirror this host's apt uses (infra/debian-packages.ts reads it). */
export async function packageHosts(debianMirror: string | undefined): Promise<string[]> {
  const endpoints = await hostRegistryEndpoints();
  const mirror = debianMirror;
  const configured = [endpoints.goProxy, endpoints.npmRegistry, endpoints.pipIndexUrl, mirror].map(hostOf);
  return [...new Set([...publicPackageHosts, ...configured.filter((host): host is string => !!host)])].sort();
}
