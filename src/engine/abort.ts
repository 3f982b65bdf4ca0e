import type { Clock } from '../domain/clock';

/** Thrown inside the engine when it is being stopped: the intent is left as persisted, for recovery to resume. */
export class EngineStopped extends Error {
  override readonly name = 'EngineStopped';
  constructor() {
    super('engine stopping');
  }
}

/** Throws EngineStopped when `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new EngineStopped();
}

/** Waits `ms` on the injected clock; EngineStopped when `signal` aborts first. */
export function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(new EngineStopped());
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      reject(new EngineStopped());
    };
    const timer = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
