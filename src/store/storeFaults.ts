import type { FaultRegistry } from '../domain/sandboxFaults';
import type { Store } from '../ports/store';

/**
 * Sandbox only: the store with `store-error` faults. While such faults are
 * pending, each intent write (insert or update) consumes one and fails as a
 * database that lost its primary would, before anything is written.
 */
export function withStoreFaults(store: Store, faults: FaultRegistry): Store {
  const fail = (op: string): void => {
    if (faults.takeAny('store-error')) throw new Error(`injected store-error: intents.${op} refused (no primary)`);
  };
  const intents = store.intents;
  return {
    ...store,
    close: () => store.close(),
    ping: () => store.ping(),
    intents: {
      get: (id) => intents.get(id),
      listByWallet: (walletId, query) => intents.listByWallet(walletId, query),
      listByAccount: (accountId, limit) => intents.listByAccount(accountId, limit),
      listNonFinal: () => intents.listNonFinal(),
      async insert(intent) {
        fail('insert');
        return intents.insert(intent);
      },
      async update(intent, expectedVersion) {
        fail('update');
        return intents.update(intent, expectedVersion);
      },
    },
  };
}
