// The folders of the data directory that are caches keyed by content (a pack's hash and the
// settings that decide the verdict), written atomically: any number of processes may share them.
// `trl test` links them into each test file's own data directory (test/support/data-dir-per-file.mjs,
// plain JavaScript that repeats these names; its test holds them equal).
export const contentCacheFolders = { judge: 'judge-cache', probe: 'probe-cache' } as const;
