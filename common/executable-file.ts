// Whether a file exists and this process may run it (installed tools under the cache directory).
import { access, constants } from 'node:fs/promises';

export async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
