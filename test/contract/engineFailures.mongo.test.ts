import { describeOnMongo } from './mongoHarness';
import { createHarness, usdc } from '../unit/engine/engineHarness';
import { isSubTxRecord } from '../../src/domain/txRecords';
import type { Store } from '../../src/ports/store';

/**
 * The funds-safety scenarios of the engine on MongoDB (when MONGODB_URI is
 * set): intent writes failing right after a confirmed burn leave the intent
 * open, and it completes once the store answers again, or after a restart.
 */
describeOnMongo('engine failures after a burn', (name, makeStore) => {
  describe(`engine on ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(async () => {
      await store?.close();
    });

    const failAfterBurn = (h: ReturnType<typeof createHarness>, times: number) => {
      const update = h.store.intents.update.bind(h.store.intents);
      let refused = 0;
      h.store.intents.update = async (intent, expected) => {
        if (refused < times && intent.results?.transactions.some((t) => isSubTxRecord(t) && t.kind === 'burn' && t.status === 'confirmed')) {
          refused++;
          throw new Error('MongoNetworkError: connection reset (injected)');
        }
        return update(intent, expected);
      };
      return { refused: () => refused, heal: () => (h.store.intents.update = update) };
    };

    test('behavior: writes failing after the burn receipt → the bridge completes when the store recovers, each transaction signed once', async () => {
      const h = createHarness({ store: wrap(store) });
      const w = await h.wallet();
      h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('10'));
      const faults = failAfterBurn(h, 3);
      const done = await h.settled((await h.submit(w.id, { action: 'bridge', amount: '10', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' })).id);
      expect(faults.refused()).toBe(3);
      expect(done.status).toBe('completed');
      expect(h.chain.signedCount('burn')).toBe(1);
      expect(h.chain.signedCount('mint')).toBe(1);
      expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('9.995'));
      await h.engine.stop();
    });

    test('behavior: the store down after the burn until a restart → the restarted engine completes the bridge', async () => {
      const h = createHarness({ store: wrap(store) });
      const w = await h.wallet();
      h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('10'));
      const faults = failAfterBurn(h, Number.POSITIVE_INFINITY);
      const submitted = await h.submit(w.id, { action: 'bridge', amount: '10', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' });
      while (faults.refused() < 3) await new Promise((r) => setTimeout(r, 5));
      await h.engine.stop();
      expect((await h.store.intents.get(submitted.id))?.status).toBe('executing');
      faults.heal();
      const restarted = h.restart();
      await restarted.start();
      const done = await h.settled(submitted.id);
      expect(done.status).toBe('completed');
      expect(h.chain.signedCount('burn')).toBe(1);
      await restarted.stop();
    });
  });
});

/** A view of the shared store whose intents repository each test may patch without touching the others. */
function wrap(store: Store): Store {
  const intents = store.intents;
  return {
    ...store,
    close: async () => undefined,
    ping: () => store.ping(),
    intents: {
      insert: (i) => intents.insert(i),
      get: (id) => intents.get(id),
      update: (i, v) => intents.update(i, v),
      listByWallet: (w, q) => intents.listByWallet(w, q),
      listByAccount: (a, l) => intents.listByAccount(a, l),
      listNonFinal: () => intents.listNonFinal(),
    },
  };
}
