// docs/reference/data-layout.md: every path common/data-layout.ts builds and what it holds
// (common/data-layout-catalog.ts), shown relative to the checkout with the default data and cache folders.
import * as layout from '../../common/data-layout.ts';
import { dataLayoutCatalog, type LayoutEntry } from '../../common/data-layout-catalog.ts';
import { code, generatedHeader, markdownTable } from './markdown.ts';

/** The path an entry builds, as a checkout with the default TRL_DATA_DIR and TRL_CACHE_DIR sees it. */
export function shownPath(entry: LayoutEntry): string {
  const built = layout[entry.name] as unknown;
  const value =
    typeof built === 'function' ? (built as (...args: unknown[]) => string)(...(entry.args ?? [])) : String(built);
  const folder = /(Dir|Root)$/.test(entry.name) ? '/' : '';
  for (const [root, shown] of [
    [layout.dataDir, '.data'],
    [layout.cacheDir, '.cache'],
    [layout.repoRoot, ''],
  ] as const) {
    if (value.startsWith(`${root}/`)) return `${shown ? `${shown}/` : ''}${value.slice(root.length + 1)}${folder}`;
  }
  throw new Error(`common/data-layout.ts: ${entry.name} builds ${value}, outside the checkout, data and cache folders`);
}

export function dataLayoutPage(): string {
  const rows = dataLayoutCatalog.map((entry) => ({ entry, path: shownPath(entry) }));
  const builder = (entry: LayoutEntry) =>
    code(entry.args ? `${entry.name}(${entry.args.map((arg) => JSON.stringify(arg)).join(', ')})` : entry.name);
  const section = (title: string, about: string, keep: (path: string) => boolean) =>
    `## ${title}\n\n${about}\n\n${markdownTable(
      ['path', 'built by', 'holds'],
      rows.filter((row) => keep(row.path)).map((row) => [code(row.path), builder(row.entry), row.entry.holds]),
    )}`;
  const inData = (p: string) => p.startsWith('.data/');
  const inCache = (p: string) => p.startsWith('.cache/');
  return [
    generatedHeader('common/data-layout.ts and common/data-layout-catalog.ts'),
    '# Data layout',
    '',
    'Every path the validator builds: `common/data-layout.ts` is the one module that builds a path under the data',
    'or cache folder (test/layout/layout.test.ts fails on another). Example arguments stand for a run, a hash, a',
    'subnet.',
    '',
    section('The data folder', '`.data/` (`TRL_DATA_DIR`): state that must survive restarts.', inData),
    section('The cache folder', '`.cache/` (`TRL_CACHE_DIR`): downloads and builds, safe to delete.', inCache),
    section(
      'The checkout',
      'Folders and files of the checkout the code reads at run time.',
      (p) => !inData(p) && !inCache(p),
    ),
  ].join('\n');
}
