// What a task's tests/test.sh installs at verify time (pip, uv / uvx, apt, npm, go, cargo, `curl … | sh`),
// read from its lines, and the one rewrite the tape needs: astral.sh's uv installer script (a host no
// sandbox reaches) becomes uv's own wheel from PyPI, the same program at the same version, installed
// where the script would put it (~/.local/bin, with the `env` file test scripts source).

/** Where the rehearsal and the verifier find the uv installer (root's, outside /tests). */
export const tapeToolsDir = '/opt/trl-registry-tape';
export const uvInstallerPath = `${tapeToolsDir}/install_uv.py`;

const installPatterns: RegExp[] = [
  /\b(?:pip3?|pip3\.\d+|python3?(?:\.\d+)?\s+-m\s+pip)\s+install\b/,
  /\buv\s+(?:pip\s+install|add|sync|run|tool\s+(?:install|run))\b/,
  /\buvx\b/,
  /\bapt(?:-get)?\s+(?:-\S+\s+)*(?:update|install)\b/,
  /\bnpm\s+(?:install|i|ci)\b/,
  /\bnpx\b/,
  /\bgo\s+(?:install|get|mod\s+download)\b/,
  /\bcargo\s+(?:build|fetch|install|test|run)\b/,
  /\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|da|z)?sh\b/,
];

/** The lines of a test script that fetch from a registry when they run (comments skipped; at most 20). */
export function verifyTimeInstalls(testScript: string): string[] {
  const found: string[] = [];
  for (const raw of testScript.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (installPatterns.some((pattern) => pattern.test(line))) found.push(line.slice(0, 200));
    if (found.length >= 20) break;
  }
  return found;
}

// `curl -LsSf https://astral.sh/uv/0.9.7/install.sh | sh` (or wget -qO-, bash, `sh -s -- …`).
const astralInstaller =
  /\b(?:curl|wget)\b[^|\n;&]*?https?:\/\/astral\.sh\/uv\/(?:([0-9][0-9A-Za-z.+-]*)\/)?install\.sh[^|\n]*\|\s*(?:sudo\s+)?(?:ba|da|z)?sh\b(?:[ \t]+-s\b[^\n;&|]*)?/g;

/** Whether a URL is astral.sh's uv installer script (any version). */
export function isUvInstaller(url: string): boolean {
  return /^https?:\/\/astral\.sh\/uv\/(?:[0-9][0-9A-Za-z.+-]*\/)?install\.sh\b/.test(url);
}

export interface TestScriptRewrite {
  script: string;
  notes: string[];
}

export function rewriteUvInstaller(testScript: string): TestScriptRewrite {
  const notes: string[] = [];
  const lines = testScript.split('\n').map((line) =>
    line.trim().startsWith('#')
      ? line
      : line.replace(astralInstaller, (_match, version: string | undefined) => {
          notes.push(
            `tests/test.sh: astral.sh's uv installer script replaced by uv ${version ?? '(latest)'} from PyPI (the same release's wheel, into ~/.local/bin with its env file): astral.sh is not reachable`,
          );
          return `python3 ${uvInstallerPath}${version ? ` ${version}` : ''}`;
        }),
  );
  return { script: lines.join('\n'), notes };
}

// A uv / uvx command, continuation lines included (a backslash before the line break).
const uvCommand = /(?<![\w./-])uvx?(?=[ \t])(?:[^\n\\]|\\.|\\\n)*/g;
const pythonRequest = /((?:^|\s)(?:-p|--python)(?:[ \t]+|=))(["']?)(\d+\.\d+(?:\.\d+)?)\2(?=\s|$)/g;

/**
 * `uvx -p 3.13 …`, `uv run --python 3.12 …`: uv downloads a CPython it cannot find, from GitHub, which no
 * sandbox reaches (downloads are off: UV_PYTHON_DOWNLOADS=never). The request becomes that version when the
 * image has it, else the image's own python3 — the test runs on the image's Python, and the note says so.
 */
export function rewriteUvPython(rewrite: TestScriptRewrite): TestScriptRewrite {
  const notes = [...rewrite.notes];
  const script = rewrite.script.replace(uvCommand, (command, offset: number) => {
    const lineStart = rewrite.script.lastIndexOf('\n', offset) + 1;
    if (rewrite.script.slice(lineStart, offset).trimStart().startsWith('#')) return command;
    return command.replace(pythonRequest, (_match, flag: string, _quote: string, version: string) => {
      notes.push(
        `tests/test.sh: uv asks for Python ${version}, which it would download from GitHub (not reachable): it gets Python ${version} when the image has it, else the image's python3`,
      );
      return `${flag}"$(command -v python${version} >/dev/null 2>&1 && echo ${version} || echo python3)"`;
    });
  });
  return { script, notes: [...new Set(notes)] };
}

/** Installs uv from its PyPI wheel (checked against PyPI's sha256), through the proxy the environment names. */
export const uvInstallerScript = `"""uv from its PyPI wheel, in place of astral.sh's installer script (trl registry tape)."""
import hashlib, io, json, os, platform, re, sys, urllib.request, zipfile

wanted = sys.argv[1] if len(sys.argv) > 1 else ""
# PyPI's simple API (PEP 691 JSON), as pip and uv read it.
request = urllib.request.Request("https://pypi.org/simple/uv/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
with urllib.request.urlopen(request, timeout=120) as response:
    files = json.load(response)["files"]
machine = platform.machine().lower()
arch = {"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine)
wheels = {}
for entry in files:
    match = re.match(r"uv-([0-9]+(?:\\.[0-9]+)*)-py3-none-(.+)\\.whl$", entry["filename"])
    if match and "manylinux" in match.group(2) and arch in match.group(2) and not entry.get("yanked"):
        wheels.setdefault(match.group(1), entry)
if not wheels:
    sys.exit(f"no manylinux wheel of uv for {arch} on PyPI")
version = wanted or max(wheels, key=lambda v: tuple(int(part) for part in v.split(".")))
wheel = wheels.get(version)
if wheel is None:
    sys.exit(f"no manylinux wheel of uv {version} for {arch} on PyPI")
with urllib.request.urlopen(wheel["url"], timeout=600) as response:
    data = response.read()
if hashlib.sha256(data).hexdigest() != wheel["hashes"]["sha256"]:
    sys.exit("the uv wheel does not match PyPI's sha256")
home = os.path.expanduser("~")
bindir = os.environ.get("UV_INSTALL_DIR") or os.path.join(home, ".local", "bin")
os.makedirs(bindir, exist_ok=True)
with zipfile.ZipFile(io.BytesIO(data)) as archive:
    for name in archive.namelist():
        base = name.rsplit("/", 1)[-1]
        if ".data/scripts/" in name and base in ("uv", "uvx"):
            target = os.path.join(bindir, base)
            with open(target, "wb") as out:
                out.write(archive.read(name))
            os.chmod(target, 0o755)
env_text = f'case ":$PATH:" in *":{bindir}:"*) ;; *) export PATH="{bindir}:$PATH" ;; esac\\n'
for env_file in (os.path.join(bindir, "env"), os.path.join(home, ".cargo", "env")):
    os.makedirs(os.path.dirname(env_file), exist_ok=True)
    with open(env_file, "w") as out:
        out.write(env_text)
print(f"uv {version} installed from PyPI into {bindir}")
`;
