import type { ApiKeyRepo } from '../../ports/store';

/** When each key was last used, kept in memory and written in one batch per interval. */
export interface KeyUseRecorder {
  /** Notes that `keyId` admitted a request at `at` (no store write here). */
  record(keyId: string, at: Date): void;
  /** Writes what is pending now (also run on every interval, and by stop). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `lastUsedAt` without a store write per request (issue: dashboard item 4):
 * requests only update a map; every `flushMs` one `recordUse` batch writes
 * the latest time of each key used since. A failed batch is merged back and
 * tried again with the next one.
 */
export function createKeyUseRecorder(keys: Pick<ApiKeyRepo, 'recordUse'>, o: { flushMs?: number; onError?: (err: unknown) => void } = {}): KeyUseRecorder {
  // Epoch milliseconds per key: a request compares two numbers; the ISO strings are made once per batch.
  let pending = new Map<string, number>();
  let running: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    running = running.then(async () => {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        await keys.recordUse([...batch].map(([id, at]) => ({ id, at: new Date(at).toISOString() })));
      } catch (err) {
        for (const [id, at] of batch) {
          const cur = pending.get(id);
          if (cur === undefined || cur < at) pending.set(id, at);
        }
        o.onError?.(err);
      }
    });
    return running;
  };
  const timer = setInterval(() => void flush(), o.flushMs ?? 5_000);
  timer.unref();
  return {
    record(keyId, at) {
      const ms = at.getTime();
      const cur = pending.get(keyId);
      if (cur === undefined || cur < ms) pending.set(keyId, ms);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
