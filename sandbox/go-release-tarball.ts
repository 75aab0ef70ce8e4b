// Go's release tarball (`curl … https://go.dev/dl/go1.21.5.linux-amd64.tar.gz`), which tasks download in their
// Dockerfiles, from the Go module proxy instead: the proxy serves every release as the module
// `golang.org/toolchain` (version `v0.0.1-go1.21.5.linux-amd64`, a zip of the same tree). A step before the RUN
// line repacks that zip as the tarball the line expects, and the line fetches it with curl from a local file; the
// rest of the line (tar, PATH, checks) runs as written. Only curl is rewritten (it reads file:// URLs); a wget of
// the tarball stays a download from a host this machine cannot reach.

/** Where the repacked tarballs sit in the image. */
export const localDownloadsDir = '/opt/trl-downloads';

const tarballUrl =
  /https?:\/\/(?:go\.dev\/dl|golang\.org\/dl|dl\.google\.com\/go)\/(go(\d+\.\d+(?:\.\d+)?)\.linux-[^\s"'/]+?\.tar\.gz)/g;

/** Whether a download (its URL, and the command that makes it) is Go's release tarball fetched by curl. */
export function isGoReleaseDownload(url: string, command: string): boolean {
  tarballUrl.lastIndex = 0;
  return /^\s*curl\b/.test(command) && tarballUrl.test(url);
}

/** The Go versions whose release tarball a RUN line downloads with curl, in order of mention; none if it uses none
 * or fetches it with anything but curl. */
export function goReleaseTarballs(run: string): string[] {
  if (!/\bcurl\b/.test(run) || /\bwget\b[^;&|]*(?:go\.dev|golang\.org|dl\.google\.com)\//.test(run)) return [];
  return [...new Set([...run.matchAll(tarballUrl)].map((match) => match[2]!))];
}

/** The RUN line with each Go release tarball URL pointing at its repacked copy in the image. */
export function servedFromLocalCopy(raw: string): string {
  return raw.replace(tarballUrl, (_url, file: string) => `file://${localDownloadsDir}/${file}`);
}

/** The step that fetches Go `version` (x.y.z) from the module proxy and repacks it as the release tarball
 * `go<version>.linux-amd64.tar.gz` (top folder `go/`, as the release's). */
export function goTarballStep(version: string, proxy: string): string {
  const module = `v0.0.1-go${version}.linux-amd64`;
  return [
    'RUN set -e;',
    `mkdir -p ${localDownloadsDir} /tmp/trl-go;`,
    `curl -fsSL -o /tmp/trl-go/go.zip '${proxy.replace(/'/g, '')}/golang.org/toolchain/@v/${module}.zip';`,
    'cd /tmp/trl-go && unzip -q go.zip;',
    `mv 'golang.org/toolchain@${module}' go;`,
    `tar -czf ${localDownloadsDir}/go${version}.linux-amd64.tar.gz go;`,
    'cd / && rm -rf /tmp/trl-go',
  ].join(' \\\n    ');
}
