import { isFinal, type Intent } from '../../domain/intent';
import { versionConflict } from '../../domain/errors/intent';
import { DuplicateError, type IntentCursor, type IntentRepo } from '../port';


/** Newest first: createdAt descending, then id descending (a total order, so cursors are stable). */
function newestFirst(a: IntentCursor, b: IntentCursor): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** In-memory intents repository; records are cloned in and out, as a database would. */
export function createMemoryIntents(): IntentRepo {
  const intents = new Map<string, Intent>();
  const copy = (i: Intent): Intent => structuredClone(i);

  return {
    async insert(intent) {
      if (intents.has(intent.id)) throw new DuplicateError('intents.id');
      intents.set(intent.id, copy(intent));
    },
    async get(id) {
      const i = intents.get(id);
      return i ? copy(i) : null;
    },
    async update(intent, expectedVersion) {
      const cur = intents.get(intent.id);
      if (!cur || cur.version !== expectedVersion) throw versionConflict(intent.id, expectedVersion);
      intents.set(intent.id, copy(intent));
    },
    async listByWallet(walletId, { status, limit, after }) {
      return [...intents.values()]
        .filter((i) => i.walletId === walletId && (status === undefined || i.status === status))
        .filter((i) => after === undefined || newestFirst(after, i) < 0)
        .sort(newestFirst)
        .slice(0, Math.max(0, limit))
        .map(copy);
    },
    async listByAccount(accountId, limit) {
      return [...intents.values()]
        .filter((i) => i.accountId === accountId)
        .sort(newestFirst)
        .slice(0, Math.max(0, limit))
        .map(copy);
    },
    async listNonFinal() {
      return [...intents.values()]
        .filter((i) => !isFinal(i.status))
        .sort((a, b) => -newestFirst(a, b))
        .map(copy);
    },
  };
}
