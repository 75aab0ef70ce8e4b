// `trl docs`: writes docs/reference/ from the code that defines each page; `--check` writes nothing
// and fails naming each page that differs (the same comparison test/layout/reference-docs.test.ts makes).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { referenceDir, referencePages, stalePages } from '../reference/reference-pages.ts';

export async function docsCommand(options: { check: boolean }): Promise<number> {
  const pages = referencePages();
  if (options.check) {
    const stale = await stalePages(pages);
    if (stale.length === 0) {
      process.stdout.write(`docs/reference/: ${pages.length} pages, all current\n`);
      return 0;
    }
    process.stderr.write(`trl: stale reference pages (run ./trl docs): ${stale.join(', ')}\n`);
    return 1;
  }
  await mkdir(referenceDir, { recursive: true });
  let written = 0;
  for (const page of pages) {
    const file = path.join(referenceDir, page.name);
    const before = await readFile(file, 'utf8').catch(() => undefined);
    if (before === page.text) continue;
    await writeFile(file, page.text);
    written += 1;
  }
  process.stdout.write(`docs/reference/: ${pages.length} pages, ${written} rewritten\n`);
  return 0;
}
