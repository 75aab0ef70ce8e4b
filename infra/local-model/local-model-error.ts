// The local model's set-up failures, each naming what went wrong and what to do: the bootstrap
// (llama-server build, weights, server start) throws only these, so `trl eval --upstream
// local-model` ends on one readable line instead of a stack trace.
export type LocalModelFailure =
  | 'missing-build-tools'
  | 'build-failed'
  | 'download-failed'
  | 'checksum-mismatch'
  | 'model-cannot-load'
  | 'port-in-use'
  | 'server-did-not-start';

export class LocalModelError extends Error {
  constructor(
    readonly failure: LocalModelFailure,
    message: string,
  ) {
    super(message);
    this.name = 'LocalModelError';
  }
}

export function missingBuildToolsError(missing: string[], installError?: string): LocalModelError {
  return new LocalModelError(
    'missing-build-tools',
    `building llama-server needs ${missing.join(', ')} on PATH, and installing them failed` +
      (installError ? ` (${installError.trim().split('\n').slice(-1)[0]})` : '') +
      `; install them (apt-get install cmake g++ ninja-build) and run again`,
  );
}

export function checksumMismatchError(file: string, expected: string, actual: string): LocalModelError {
  return new LocalModelError(
    'checksum-mismatch',
    `${file} has SHA256 ${actual}, expected ${expected}: the download is damaged or not the pinned one; ` +
      `delete it and run again (nothing was loaded from it)`,
  );
}

/** What llama-server said on its way out, turned into the failure it shows (its log's last lines otherwise). */
export function serverStartError(options: {
  log: string;
  port: number;
  modelFile: string;
  exitCode: number | null;
}): LocalModelError {
  const { log, port, modelFile, exitCode } = options;
  if (/address already in use|couldn't bind|could not bind|failed to bind/i.test(log))
    return new LocalModelError(
      'port-in-use',
      `llama-server could not listen on 127.0.0.1:${port}: the port is in use; free it or choose another (TRL_LOCAL_MODEL_PORT)`,
    );
  if (/failed to load model|error loading model|unable to load model|gguf_init_from_file|invalid magic/i.test(log))
    return new LocalModelError(
      'model-cannot-load',
      `llama-server could not load ${modelFile}: ${lastLines(log, 3)}; delete the file to fetch it again, or choose another model (TRL_LOCAL_MODEL)`,
    );
  return new LocalModelError(
    'server-did-not-start',
    `llama-server exited with ${exitCode ?? 'a signal'} before it answered: ${lastLines(log, 5)}`,
  );
}

function lastLines(log: string, count: number): string {
  const lines = log
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.slice(-count).join(' | ') || '(no output)';
}
