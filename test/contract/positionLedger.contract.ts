import type { PositionLedgerEntry, Store } from '../../src/ports/store';

/**
 * The PositionLedgerRepo contract of src/ports/store.ts. Every adapter runs
 * this same suite (positionLedger.memory.test.ts, positionLedger.mongo.test.ts);
 * each test keeps to a wallet of its own.
 */

let seq = 0;
const walletOf = (name: string) => `svc_wallet_${name}_${Date.now().toString(36)}_${seq++}`;

function entry(walletId: string, over: Partial<PositionLedgerEntry>): PositionLedgerEntry {
  return {
    intentId: 'intent_a',
    stepIndex: 0,
    walletId,
    chain: 'base-sepolia',
    protocol: 'aave-v3',
    asset: 'USDC',
    kind: 'deposit',
    amount: '100000000',
    at: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

/** Registers the position ledger contract for one adapter. */
export function describePositionLedgerContract(name: string, makeStore: () => Promise<Pick<Store, 'positionLedger' | 'close'>>): void {
  describe(`position ledger contract: ${name}`, () => {
    let store: Pick<Store, 'positionLedger' | 'close'>;

    beforeAll(async () => {
      store = await makeStore();
    });

    afterAll(async () => {
      await store?.close();
    });

    test('behavior: record → listByWallet round-trips entries (a withdraw with its position after, a deposit without), ordered by at, intent, step', async () => {
      const w = walletOf('order');
      const later = entry(w, { intentId: 'intent_b', kind: 'withdraw', amount: '30000000', positionAfter: '75000000', at: '2026-01-02T00:00:00.000Z' });
      const step1 = entry(w, { stepIndex: 1, chain: 'arbitrum-sepolia', protocol: 'compound-v3' });
      const step0 = entry(w, {});
      for (const e of [later, step1, step0]) expect(await store.positionLedger.record(e)).toBe(true);
      await store.positionLedger.record(entry(walletOf('other'), { intentId: 'intent_other' }));
      expect(await store.positionLedger.listByWallet(w)).toEqual([step0, step1, later]);
    });

    test("behavior: an entry's supply index round-trips; one recorded without it (before indices were kept) loads without it", async () => {
      const w = walletOf('index');
      const indexed = entry(w, { intentId: 'intent_indexed', index: '1050000000000000000000000000' });
      const legacy = entry(w, { intentId: 'intent_legacy', kind: 'withdraw', amount: '1', positionAfter: '0', at: '2026-01-03T00:00:00.000Z' });
      for (const e of [indexed, legacy]) expect(await store.positionLedger.record(e)).toBe(true);
      const [first, second] = await store.positionLedger.listByWallet(w);
      expect(first).toEqual(indexed);
      expect(second).toEqual(legacy);
      expect(second).not.toHaveProperty('index');
    });

    test('behavior: a second record of the same (intentId, stepIndex) is refused (false) and changes nothing, even with other amounts', async () => {
      const w = walletOf('replay');
      const first = entry(w, { intentId: 'intent_replay', amount: '5' });
      expect(await store.positionLedger.record(first)).toBe(true);
      expect(await store.positionLedger.record({ ...first, amount: '6', at: '2026-02-01T00:00:00.000Z' })).toBe(false);
      expect(await store.positionLedger.listByWallet(w)).toEqual([first]);
    });

    test('behavior: two records of one step at once: exactly one is new', async () => {
      const w = walletOf('race');
      const e = entry(w, { intentId: 'intent_race', stepIndex: 2 });
      const outcomes = await Promise.all([store.positionLedger.record(e), store.positionLedger.record(e), store.positionLedger.record(e)]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await store.positionLedger.listByWallet(w)).toHaveLength(1);
    });

    test('behavior: a wallet without entries lists none', async () => {
      expect(await store.positionLedger.listByWallet(walletOf('empty'))).toEqual([]);
    });
  });
}
