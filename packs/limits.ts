// Bounds on a policy pack. A pack outside them is rejected with a clear reason, never a crash.
export const packLimits = {
  maxFiles: 64,
  maxFileBytes: 256 * 1024,
  maxTotalBytes: 1024 * 1024,
  /** Upper bound on the canonical JSON fetched from a URL (escaping can grow it). */
  maxCanonicalBytes: 3 * 1024 * 1024,
  allowedExtensions: ['.ts', '.mts', '.js', '.mjs', '.cjs', '.json', '.md', '.txt'],
  manifestFile: 'policy.json',
} as const;
