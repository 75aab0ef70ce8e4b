// Bounds on a policy pack (the live format's, plus what keeps the worker safe). A pack outside
// them is rejected with a clear reason, never a crash.
export const packLimits = {
  /** The live format's bound on the canonical JSON of a pack. */
  maxPackBytes: 32 * 1024,
  maxFiles: 64,
  maxFileNameLength: 200,
  /** A directory read stops early past this many bytes (the JSON bound decides). */
  maxDirectoryBytes: 256 * 1024,
  /** Upper bound on the canonical JSON fetched from a URL before it is parsed. */
  maxFetchedBytes: 256 * 1024,
} as const;
