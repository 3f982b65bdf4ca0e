import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { isFinal, type Intent } from '../../domain/intent';
import { getIntent } from './getIntent';

/** Snapshots kept for a reader that lags; beyond it the oldest are dropped (each snapshot is complete, so the latest still tells all). */
export const WATCH_BUFFER = 64;

/**
 * An intent's progress as a stream: the current snapshot first, then every
 * newer persisted version in order, ending after the final state. Listening
 * starts before the snapshot is read, so no change falls between the two.
 * Memory per watcher is bounded by WATCH_BUFFER snapshots, and `return()`
 * (a client going away) releases the listener at once, even mid-wait.
 */
export async function watchIntent(deps: Pick<AppDeps, 'store' | 'engine'>, principal: Principal, intentId: string): Promise<AsyncIterableIterator<Intent>> {
  const queue: Intent[] = [];
  let waiting: ((r: IteratorResult<Intent>) => void) | null = null;
  let version = -1;
  let done = false;

  const finish = (): IteratorResult<Intent> => {
    done = true;
    stopListening();
    return { value: undefined, done: true };
  };
  /** The next snapshot newer than the last one handed out, if queued. */
  const take = (): IteratorResult<Intent> | null => {
    while (queue.length > 0) {
      const next = queue.shift()!;
      if (next.version <= version) continue;
      version = next.version;
      return { value: next, done: false };
    }
    return null;
  };
  const stopListening = deps.engine.bus.listen({ intentId }, (intent) => {
    queue.push(intent);
    if (queue.length > WATCH_BUFFER) queue.shift();
    if (waiting) {
      const r = take();
      if (r) {
        const w = waiting;
        waiting = null;
        w(r);
      }
    }
  });

  let current: Intent;
  try {
    current = await getIntent(deps, principal, intentId);
  } catch (e) {
    stopListening();
    throw e;
  }
  queue.unshift(current);

  let last: Intent | null = null;
  const iterator: AsyncIterableIterator<Intent> = {
    async next() {
      if (done || (last && isFinal(last.status))) return finish();
      const r = take() ?? (await new Promise<IteratorResult<Intent>>((resolve) => (waiting = resolve)));
      if (!r.done) last = r.value;
      return r;
    },
    async return() {
      const w = waiting;
      waiting = null;
      const r = finish();
      w?.(r);
      return r;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
