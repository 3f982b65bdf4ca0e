import { isFinal, type Intent } from '../../domain/intent';
import { versionConflict } from '../../domain/errors/intent';
import { DuplicateError, type IntentChangeFeed, type IntentCursor, type IntentRepo } from '../../ports/store';
import { deepFreeze } from './frozen';
import { createMemoryIntentChanges } from './memoryIntentChanges';

const WRITTEN: Promise<void> = Promise.resolve();

/** Newest first: createdAt descending, then id descending (a total order, so cursors are stable). */
function newestFirst(a: IntentCursor, b: IntentCursor): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * In-memory intents repository. Records are kept as deep-frozen snapshots and
 * handed out as they are, without a copy: a caller cannot change what the
 * store holds (a write to a returned record throws), and one that wants to
 * change a record builds a new one (as `transition()` does). `insert` copies
 * the caller's record before freezing it, so the caller's object stays
 * writable; `update` takes the record it is given and freezes it in place
 * (the engine's next snapshot shares what did not change with the last one,
 * already frozen, so a write costs what changed, not the whole record).
 * Intents are indexed by wallet: listing a wallet's intents costs that
 * wallet's intents, not every intent of the process. `changes` is the
 * store's IntentChangeFeed: every successful insert and update, published
 * synchronously after the write with the stored record.
 */
export function createMemoryIntents(): IntentRepo & { changes: IntentChangeFeed } {
  const intents = new Map<string, Intent>();
  const changes = createMemoryIntentChanges();
  const byWallet = new Map<string, Set<string>>();

  return {
    changes: changes.feed,
    async insert(intent) {
      if (intents.has(intent.id)) throw new DuplicateError('intents.id');
      const stored = deepFreeze(structuredClone(intent));
      intents.set(intent.id, stored);
      let ids = byWallet.get(intent.walletId);
      if (ids === undefined) byWallet.set(intent.walletId, (ids = new Set()));
      ids.add(intent.id);
      changes.publish(stored);
    },
    async get(id) {
      return intents.get(id) ?? null;
    },
    // Not async: a write answers the one resolved promise (no promise and async frame of its own per transition), a failed one a rejection.
    update(intent, expectedVersion) {
      try {
        const cur = intents.get(intent.id);
        if (!cur || cur.version !== expectedVersion) throw versionConflict(intent.id, expectedVersion);
        if (intent.walletId !== cur.walletId) {
          byWallet.get(cur.walletId)?.delete(intent.id);
          let ids = byWallet.get(intent.walletId);
          if (ids === undefined) byWallet.set(intent.walletId, (ids = new Set()));
          ids.add(intent.id);
        }
        intents.set(intent.id, deepFreeze(intent));
        changes.publish(intent);
        return WRITTEN;
      } catch (err) {
        return Promise.reject(err);
      }
    },
    async listByWallet(walletId, { status, limit, after, updatedSince }) {
      // One pass over the wallet's intents (planning asks this once or twice per intent).
      const out: Intent[] = [];
      for (const id of byWallet.get(walletId) ?? []) {
        const i = intents.get(id)!;
        if (
          (status === undefined || i.status === status) &&
          (updatedSince === undefined || i.updatedAt >= updatedSince) &&
          (after === undefined || newestFirst(after, i) < 0)
        )
          out.push(i);
      }
      out.sort(newestFirst);
      return out.length > limit ? out.slice(0, Math.max(0, limit)) : out;
    },
    async listByAccount(accountId, limit) {
      return [...intents.values()]
        .filter((i) => i.accountId === accountId)
        .sort(newestFirst)
        .slice(0, Math.max(0, limit));
    },
    async listNonFinal() {
      return [...intents.values()].filter((i) => !isFinal(i.status)).sort((a, b) => -newestFirst(a, b));
    },
  };
}
