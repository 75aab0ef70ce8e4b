// Bad command-line input: printed as a one-line message with exit code 64, never a stack trace.
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
