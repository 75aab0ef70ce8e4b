// Who first committed a pack hash. The first committer owns it; the same hash from another hotkey
// is rejected. One file per hash, created exclusively, so concurrent claims cannot both win.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

const ownerSchema = z.object({ packHash: z.string(), hotkey: z.string(), claimedAt: z.string() });
export type PackOwner = z.infer<typeof ownerSchema>;

export class PackOwners {
  constructor(private readonly dir: string) {}

  private file(packHash: string): string {
    return path.join(this.dir, `${packHash.replace(/[^0-9a-f]/g, '')}.json`);
  }

  async ownerOf(packHash: string): Promise<PackOwner | undefined> {
    try {
      return ownerSchema.parse(JSON.parse(await readFile(this.file(packHash), 'utf8')));
    } catch {
      return undefined;
    }
  }

  /**
   * Claims the hash for hotkey unless someone already owns it; returns the owner either way.
   * A claim by one of `supersedable` (owners that never were chain commitments) gives way once.
   */
  async claim(
    packHash: string,
    hotkey: string,
    claimedAt: string,
    options: { supersedable?: string[] } = {},
  ): Promise<PackOwner> {
    await mkdir(this.dir, { recursive: true });
    const record: PackOwner = { packHash, hotkey, claimedAt };
    for (let attempt = 0; ; attempt++) {
      try {
        await writeFile(this.file(packHash), JSON.stringify(record), { flag: 'wx' });
        return record;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const existing = await this.ownerOf(packHash);
        if (!existing) throw new Error(`the owner record of ${packHash} is unreadable`);
        if (attempt > 0 || existing.hotkey === hotkey || !options.supersedable?.includes(existing.hotkey))
          return existing;
        // Removed, then claimed exclusively again: of two racing hotkeys only one can win.
        await rm(this.file(packHash), { force: true });
      }
    }
  }
}
