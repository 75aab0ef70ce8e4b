// Bundles a policy pack into one ESM file for the policy runner, entirely in memory: pack files come
// from `pack.files`, never from disk, and the only package a policy may import is 'trl-policy-sdk'.
// Refusals here are advice to the miner, not the security boundary (the sandbox is): a policy that
// builds a module name at run time is stopped by the sandbox, not by this file.
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { sha256Hex, type CanonicalPack } from './canonical-pack.ts';
import { PackError } from './pack-error.ts';
import { entryOf } from './pack-format.ts';

const typeScriptEntry = entryOf('typescript');
import { policySdkDir } from '../common/data-layout.ts';

export const sdkPackageName = 'trl-policy-sdk';

// SDK modules are named relative to the SDK folder so the bundle (and its hash) does not depend on
// where the validator is checked out.
const sdkEntry = 'index.ts';

/** Upper bound on a bundle; a policy is routing logic, not a data set. */
export const maxBundleBytes = 2 * 1024 * 1024;

export type PolicyBundle = { code: string; sha256: string; sizeBytes: number };

const packNamespace = 'pack';
const sdkNamespace = 'sdk';
const builtins = new Set(builtinModules.flatMap((name) => [name, name.split('/')[0] ?? name]));
const loaders: Record<string, esbuild.Loader> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.json': 'json',
  '.md': 'text',
  '.txt': 'text',
};
// TypeScript lets `./util.js` name `util.ts`; try the same substitutions, then bare extensions.
const jsToTs: Record<string, string[]> = { '.js': ['.ts'], '.mjs': ['.mts'], '.cjs': ['.cts'] };
const implicitSuffixes = ['.ts', '.mts', '.js', '.mjs', '.json', '/index.ts', '/index.js'];

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtins.has(specifier) || builtins.has(specifier.split('/')[0] ?? '');
}

function findPackFile(files: Record<string, string>, wanted: string): string | undefined {
  if (Object.hasOwn(files, wanted)) return wanted;
  const extension = path.posix.extname(wanted);
  for (const replacement of jsToTs[extension] ?? []) {
    const candidate = wanted.slice(0, -extension.length) + replacement;
    if (Object.hasOwn(files, candidate)) return candidate;
  }
  return implicitSuffixes.map((suffix) => wanted + suffix).find((candidate) => Object.hasOwn(files, candidate));
}

function refusal(text: string): esbuild.OnResolveResult {
  return { errors: [{ text }] };
}

function packPlugin(pack: CanonicalPack): esbuild.Plugin {
  return {
    name: 'trl-pack',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return { path: args.path, namespace: packNamespace };
        const importer = args.importer || '(entry)';
        const specifier = args.path;
        const fromSdk = args.namespace === sdkNamespace;
        if (specifier === sdkPackageName) return { path: sdkEntry, namespace: sdkNamespace };
        if (fromSdk) {
          const target = path.posix.normalize(path.posix.join(path.posix.dirname(args.importer), specifier));
          if (!specifier.startsWith('.') || target.startsWith('../'))
            return refusal(`the policy SDK imports "${specifier}", which is not an SDK file`);
          return { path: target, namespace: sdkNamespace };
        }
        if (isBuiltin(specifier)) {
          return refusal(
            `${importer} imports "${specifier}", a Node built-in module; policies run without file system, network or process access. Remove the import and use ctx.call for model calls and ctx.log for logging`,
          );
        }
        if (/^[a-z][a-z0-9+.-]*:/i.test(specifier)) {
          return refusal(
            `${importer} imports "${specifier}"; URL imports are not allowed. Copy the code into the pack`,
          );
        }
        if (specifier.startsWith('/')) {
          return refusal(
            `${importer} imports "${specifier}", an absolute path outside the pack; import pack files with relative paths such as "./util.ts"`,
          );
        }
        if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') {
          return refusal(
            `${importer} imports the package "${specifier}"; the only package a policy may import is "${sdkPackageName}". Copy the code you need into the pack`,
          );
        }
        const joined = path.posix.normalize(path.posix.join(path.posix.dirname(args.importer), specifier));
        if (joined === '..' || joined.startsWith('../') || path.posix.isAbsolute(joined)) {
          return refusal(
            `${importer} imports "${specifier}", which points outside the pack; a pack may import only its own files`,
          );
        }
        const found = findPackFile(pack.files, joined);
        if (!found)
          return refusal(
            `${importer} imports "${specifier}", but the pack has no file ${joined}; add it or fix the path`,
          );
        return { path: found, namespace: packNamespace };
      });

      build.onLoad({ filter: /.*/, namespace: packNamespace }, (args) => {
        const contents = pack.files[args.path];
        const loader = loaders[path.posix.extname(args.path)];
        if (contents === undefined) return { errors: [{ text: `the pack has no file ${args.path}` }] };
        if (!loader)
          return {
            errors: [{ text: `${args.path} cannot be imported: only ${Object.keys(loaders).join(' ')} files can` }],
          };
        return { contents, loader, resolveDir: '/' };
      });

      build.onLoad({ filter: /.*/, namespace: sdkNamespace }, async (args) => ({
        contents: await readFile(path.join(policySdkDir, args.path), 'utf8'),
        loader: 'ts',
      }));
    },
  };
}

function describe(message: esbuild.Message): string {
  if (!message.location) return message.text;
  const file = message.location.file.replace(/^(pack|sdk):/, '');
  const where = `${file}:${message.location.line}`;
  // Our refusals start with the importing file; put the line right after it.
  return message.text.startsWith(`${file} `)
    ? `${where}${message.text.slice(file.length)}`
    : `${where}: ${message.text}`;
}

/** Bundles the pack's entry and everything it imports into one ESM module whose default export is the policy. */
export async function bundlePack(pack: CanonicalPack): Promise<PolicyBundle> {
  const entry = typeScriptEntry;
  if (!Object.hasOwn(pack.files, entry))
    throw new PackError('pack_invalid', `a TypeScript pack needs ${entry}; add it`);

  let result: esbuild.BuildResult<{ write: false; metafile: true }>;
  try {
    result = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      metafile: true,
      outfile: 'policy.bundle.mjs',
      platform: 'neutral',
      format: 'esm',
      target: 'node18',
      minify: false,
      sourcemap: false,
      logLevel: 'silent',
      plugins: [packPlugin(pack)],
    });
  } catch (error) {
    const messages = (error as { errors?: esbuild.Message[] }).errors;
    if (!messages?.length) throw error;
    const shown = messages.slice(0, 5).map(describe).join('; ');
    const more = messages.length > 5 ? ` (and ${messages.length - 5} more)` : '';
    throw new PackError('pack_invalid', `the policy does not bundle: ${shown}${more}`);
  }

  const output = result.outputFiles[0];
  if (!output) throw new PackError('pack_invalid', 'the policy bundled to nothing; check the entry file');
  const exports = Object.values(result.metafile.outputs)[0]?.exports ?? [];
  if (!exports.includes('default')) {
    throw new PackError(
      'pack_invalid',
      `${entry} has no default export; end it with \`export default definePolicy({ async complete(request, ctx) { … } })\``,
    );
  }
  const code = output.text;
  const sizeBytes = Buffer.byteLength(code, 'utf8');
  if (sizeBytes > maxBundleBytes) {
    throw new PackError(
      'pack_too_large',
      `the bundled policy is ${sizeBytes} bytes; at most ${maxBundleBytes} are allowed. Remove embedded data or unused code`,
    );
  }
  return { code, sha256: sha256Hex(code), sizeBytes };
}
