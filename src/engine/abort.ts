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

/**
 * Rejecters of the calls waiting under each signal: one 'abort' listener per
 * signal serves them all (an EventTarget listener added and removed per
 * chain call showed in the engine's profile).
 */
const waiters = new WeakMap<AbortSignal, Set<() => void>>();

function onAbort(signal: AbortSignal, reject: () => void): () => void {
  let set = waiters.get(signal);
  if (set === undefined) {
    const mine = new Set<() => void>();
    set = mine;
    waiters.set(signal, mine);
    signal.addEventListener(
      'abort',
      () => {
        waiters.delete(signal);
        for (const r of mine) r();
      },
      { once: true },
    );
  }
  const own = set;
  own.add(reject);
  return () => own.delete(reject);
}

/** `p`, or EngineStopped as soon as `signal` aborts (the abandoned promise is left to settle on its own). */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(new EngineStopped());
      // the abandoned promise's own rejection is handled here
      p.then(undefined, () => undefined);
      return;
    }
    const forget = onAbort(signal, () => reject(new EngineStopped()));
    p.then(
      (v) => {
        forget();
        resolve(v);
      },
      (e: unknown) => {
        forget();
        reject(e);
      },
    );
  });
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
