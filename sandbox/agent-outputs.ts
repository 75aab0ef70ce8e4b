// Copies the declared agent outputs out of the agent container into one sanitised tar, rooted at "/".
// Agent output is hostile: only regular files and directories inside the declared paths survive,
// with permission bits stripped of setuid/setgid; everything dropped is noted, never silent.
import path from 'node:path';
import type { ContainerSession } from './container-session.ts';
import { defaultMaxTarEntries, packFiles, tarEntryBytes, TarTooLargeError, type ArchiveFile } from './tar-archive.ts';
import { capList } from '../common/bounded-list.ts';

export interface CollectedOutputs {
  archive: Buffer;
  fileCount: number;
  notes: string[];
}

export const agentUid = 1000;

/** A name as it may appear in a one-line note: control characters (newlines) escaped. */
function printable(name: string): string {
  return /[\u0000-\u001f\u007f]/.test(name) ? JSON.stringify(name) : name;
}

/**
 * Outputs are bounded as an archive (headers and padded content, so many empty files count) and
 * by entry count; what does not fit is noted, and the notes themselves are capped ("+N more").
 */
export async function collectAgentOutputs(
  session: ContainerSession,
  declaredPaths: string[],
  maxBytes: number,
  maxEntries = defaultMaxTarEntries,
): Promise<CollectedOutputs> {
  const files: ArchiveFile[] = [];
  const notes: string[] = [];
  let budget = maxBytes;
  let entriesLeft = maxEntries;
  for (const declared of declaredPaths) {
    const normalized = path.posix.normalize(declared).replace(/\/+$/, '');
    const parent = path.posix.dirname(normalized);
    const base = path.posix.basename(normalized);
    let entries;
    try {
      entries = await session.download(normalized, budget, entriesLeft);
    } catch (error) {
      if (error instanceof TarTooLargeError) {
        notes.push(
          error.bound === 'entries'
            ? `${printable(declared)}: more than the ${maxEntries}-entry output limit; not copied`
            : `${printable(declared)}: larger than the ${maxBytes}-byte output limit; not copied`,
        );
        continue;
      }
      throw error;
    }
    if (!entries) {
      notes.push(`${printable(declared)}: not produced by the agent`);
      continue;
    }
    for (const entry of entries) {
      budget -= tarEntryBytes(entry.content?.length ?? 0);
      entriesLeft -= 1;
      const name = path.posix.normalize(entry.name).replace(/\/+$/, '');
      if (/[\u0000-\u001f\u007f]/.test(name)) {
        notes.push(`${printable(entry.name)}: control characters in the name; dropped`);
        continue;
      }
      if (name !== base && !name.startsWith(`${base}/`)) {
        notes.push(`${printable(entry.name)}: outside the declared path ${printable(declared)}; dropped`);
        continue;
      }
      if (entry.type === 'directory') continue; // directories are recreated from file paths
      if (entry.type !== 'file' || !entry.content) {
        notes.push(`${path.posix.join(parent, name)}: ${entry.type} entries are not copied; dropped`);
        continue;
      }
      const target = path.posix.join(parent, name).replace(/^\/+/, '');
      files.push({ name: target, content: entry.content, mode: entry.mode & 0o777 });
    }
  }
  // No directory entries: extracting them would re-own existing parents such as /etc; Docker creates missing ones.
  const archive = await packFiles(files, { uid: agentUid, gid: agentUid }, { directoryEntries: false });
  return { archive, fileCount: files.length, notes: capList(notes) };
}
