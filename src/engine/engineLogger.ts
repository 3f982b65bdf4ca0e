/** What the engine logs through; a pino logger fits. */
export interface EngineLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

/** A logger that drops everything (tests, tools). */
export const silentLogger: EngineLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
