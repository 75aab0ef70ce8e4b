// Where this machine keeps state and downloads, and where it fetches Debian packages from (read by
// common/data-layout.ts and infra/debian-packages.ts).
import { optionalText, settingTable } from './setting.ts';

export const machineSettings = settingTable({
  TRL_DATA_DIR: {
    schema: optionalText,
    defaultText: '`.data/` in the checkout',
    description:
      "State that must survive restarts: Temporal's SQLite file, artifacts, the pack store, pid files, logs (docs/reference/data-layout.md).",
  },
  TRL_CACHE_DIR: {
    schema: optionalText,
    defaultText: '`.cache/` in the checkout',
    description: 'Downloads and builds (the Temporal CLI, wheels, image archives); safe to delete.',
  },
  TRL_DEBIAN_MIRROR: {
    schema: optionalText,
    defaultText: "the mirror in apt's sources",
    description: "Where debootstrap fetches the sandbox base image's packages.",
  },
});
