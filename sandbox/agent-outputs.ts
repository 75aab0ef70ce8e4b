// Copies the declared agent outputs out of the agent container into one sanitised tar, rooted at "/".
// Agent output is hostile: only regular files and directories inside the declared paths survive,
// with permission bits stripped of setuid/setgid; everything dropped is noted, never silent.
import path from 'node:path';
import type { ContainerSession } from './container-session.ts';
import { packFiles, TarTooLargeError, type ArchiveFile } from './tar-archive.ts';

export interface CollectedOutputs {
  archive: Buffer;
  fileCount: number;
  notes: string[];
}

export const agentUid = 1000;

export async function collectAgentOutputs(session: ContainerSession, declaredPaths: string[], maxBytes: number): Promise<CollectedOutputs> {
  const files: ArchiveFile[] = [];
  const notes: string[] = [];
  let budget = maxBytes;
  for (const declared of declaredPaths) {
    const normalized = path.posix.normalize(declared).replace(/\/+$/, '');
    const parent = path.posix.dirname(normalized);
    const base = path.posix.basename(normalized);
    let entries;
    try {
      entries = await session.download(normalized, budget);
    } catch (error) {
      if (error instanceof TarTooLargeError) {
        notes.push(`${declared}: larger than the ${maxBytes}-byte output limit; not copied`);
        continue;
      }
      throw error;
    }
    if (!entries) {
      notes.push(`${declared}: not produced by the agent`);
      continue;
    }
    for (const entry of entries) {
      const name = path.posix.normalize(entry.name).replace(/\/+$/, '');
      if (name !== base && !name.startsWith(`${base}/`)) {
        notes.push(`${entry.name}: outside the declared path ${declared}; dropped`);
        continue;
      }
      if (entry.type === 'directory') continue; // directories are recreated from file paths
      if (entry.type !== 'file' || !entry.content) {
        notes.push(`${path.posix.join(parent, name)}: ${entry.type} entries are not copied; dropped`);
        continue;
      }
      budget -= entry.content.length;
      const target = path.posix.join(parent, name).replace(/^\/+/, '');
      files.push({ name: target, content: entry.content, mode: entry.mode & 0o777 });
    }
  }
  // No directory entries: extracting them would re-own existing parents such as /etc; Docker creates missing ones.
  const archive = await packFiles(files, { uid: agentUid, gid: agentUid }, { directoryEntries: false });
  return { archive, fileCount: files.length, notes };
}
