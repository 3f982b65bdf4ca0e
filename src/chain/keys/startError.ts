/**
 * A key provider that cannot start (a missing library or binding, a wrong
 * PIN, a missing token): the message names the variable, and `npm start`
 * exits 2 as for a bad variable.
 */
export class KeyProviderStartError extends Error {
  override readonly name = 'KeyProviderStartError';
  constructor(variable: string, problem: string, options?: { cause?: unknown }) {
    super(`Invalid environment:\n  ${variable}: ${problem}`, options);
  }
}
