import type { AppDeps } from '../deps';
import { SESSION_CREDENTIAL_PREFIX } from './principal';

/** How often keys held by open streams are re-read from the store (the cross-instance bound). */
export const STREAM_KEY_RECHECK_MS = 5_000;

/**
 * Long-lived streams (WebSocket connections, SSE subscriptions) hold an API
 * key, or a dashboard session (`session:<id>`, credentialOf), for longer than
 * one request. They watch it here: a revocation or sign-out on this
 * instance reaches them at once; one made on another instance sharing the
 * store is found by a periodic re-read of the watched keys (every
 * STREAM_KEY_RECHECK_MS, only while something is watched).
 */
export interface KeyRevocations {
  /** Calls `onRevoked` once when `keyId` is revoked; returns the function that stops watching. */
  watch(keyId: string, onRevoked: () => void): () => void;
  /** Tells the watchers of `keyId` it is revoked (called by revokeApiKey and by the re-read). */
  revoked(keyId: string): void;
  /** Stops the re-read timer. */
  close(): void;
}

export function createKeyRevocations(deps: Pick<AppDeps, 'store'>, o: { recheckMs?: number } = {}): KeyRevocations {
  /** Whether a watched credential has ended: a revoked or deleted key, a session signed out or expired; undefined when the read failed. */
  const ended = async (id: string): Promise<boolean | undefined> => {
    try {
      if (id.startsWith(SESSION_CREDENTIAL_PREFIX)) return (await deps.store.sessions.get(id.slice(SESSION_CREDENTIAL_PREFIX.length))) === null;
      const key = await deps.store.apiKeys.get(id);
      return key === null || Boolean(key.revokedAt);
    } catch {
      return undefined;
    }
  };
  const watchers = new Map<string, Set<() => void>>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  async function recheck(): Promise<void> {
    await Promise.all(
      [...watchers.keys()].map(async (id) => {
        // A key deleted from the store is as good as revoked; a failed read decides nothing.
        if ((await ended(id)) === true) self.revoked(id);
      }),
    );
  }

  function schedule(): void {
    if (timer || closed || watchers.size === 0) return;
    timer = setTimeout(() => {
      timer = null;
      void recheck().finally(schedule);
    }, o.recheckMs ?? STREAM_KEY_RECHECK_MS);
    timer.unref();
  }

  const self: KeyRevocations = {
    watch(keyId, onRevoked) {
      let set = watchers.get(keyId);
      if (!set) watchers.set(keyId, (set = new Set()));
      const entry = () => onRevoked();
      set.add(entry);
      schedule();
      return () => {
        set.delete(entry);
        if (set.size === 0 && watchers.get(keyId) === set) watchers.delete(keyId);
      };
    },
    revoked(keyId) {
      const set = watchers.get(keyId);
      if (!set) return;
      watchers.delete(keyId);
      for (const fn of set) fn();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
  return self;
}
