// Throw-away scenario folders for fingerprint tests: the standard layout with chosen texts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const validTaskToml = `version = "1.0"
agent_outputs = ["/app/out"]
[metadata]
category = "data-wrangling"
difficulty = "easy"
[agent]
timeout_sec = 600
[verifier]
timeout_sec = 120
[environment]
cpus = 1
memory_mb = 1024
`;

export type FolderSpec = { instruction: string; files?: Record<string, string>; taskToml?: string };

/** A scenarios directory holding one folder per entry (task.toml, Dockerfile and test.sh added), removed after the
 * test. */
export async function writeScenariosDir(
  folders: Record<string, FolderSpec>,
  test: { after: (fn: () => Promise<void>) => void },
): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'trl-scenarios-'));
  test.after(() => rm(root, { recursive: true, force: true }));
  for (const [name, spec] of Object.entries(folders)) {
    const files: Record<string, string> = {
      'task.toml': spec.taskToml ?? validTaskToml,
      'instruction.md': spec.instruction,
      'environment/Dockerfile': 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n',
      'tests/test.sh': '#!/bin/bash\nexit 0\n',
      ...spec.files,
    };
    for (const [relative, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, name, relative)), { recursive: true });
      await writeFile(path.join(root, name, relative), text);
    }
  }
  return root;
}
