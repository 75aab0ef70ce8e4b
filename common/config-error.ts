// A configuration value is wrong: the message names the variable and what it expects, and the
// command line prints it without a stack trace.
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
