// A scenario folder that does not follow the layout: a clear message naming the file and the fix.
export class ScenarioError extends Error {
  constructor(
    readonly scenario: string,
    message: string,
  ) {
    super(`scenario ${scenario}: ${message}`);
    this.name = 'ScenarioError';
  }
}
