// The folders of the data directory that are caches keyed by content (a pack's hash and the
// settings that decide the verdict), written atomically: any number of processes may share them.
// Apart from common/data-layout.ts, so a process can name them before it fixes its data directory.
export const contentCacheFolders = { judge: 'judge-cache', probe: 'probe-cache' } as const;
