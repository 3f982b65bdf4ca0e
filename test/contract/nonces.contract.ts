import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/ports/store';
import { missingRaceIsolation } from './raceProbe';

/**
 * The NonceRepo contract of src/ports/store.ts, run by every adapter
 * (nonces.memory.test.ts, nonces.mongo.test.ts). Every test uses its own
 * random keys, so the tests share one store.
 */

const key = () => `84532:0x${randomBytes(20).toString('hex')}`;
const GAP_MS = 60_000;
const T0 = Date.UTC(2026, 0, 1);

type ContractStore = Pick<Store, 'nonces' | 'usage' | 'kind' | 'close'>;

export function describeNoncesContract(name: string, makeStore: () => Promise<ContractStore>): void {
  describe(`nonces contract: ${name}`, () => {
    let store: ContractStore;
    /** Null when this server isolates concurrent guarded updates (raceProbe.ts); else the capability line to print. */
    let missingIsolation: string | null = null;
    beforeAll(async () => {
      store = await makeStore();
      missingIsolation = await missingRaceIsolation(store, 'distinct concurrent nonces not asserted');
    });
    afterAll(async () => {
      await store?.close();
    });

    const take = (k: string, chainPending: number, nowMs = T0) => store.nonces.take(k, chainPending, nowMs, GAP_MS);

    test("behavior: the first take hands out the chain's pending nonce; the next ones count up while the chain stays put", async () => {
      const k = key();
      expect(await take(k, 7)).toBe(7);
      expect(await take(k, 7, T0 + 1)).toBe(8);
      expect(await take(k, 7, T0 + 2)).toBe(9);
      // the chain caught up with some of them: the counter is still ahead, and counts on
      expect(await take(k, 9, T0 + 3)).toBe(10);
    });

    test("behavior: a chain ahead of the counter (another sender, a fresh database) raises it to the chain's pending nonce", async () => {
      const k = key();
      expect(await take(k, 3)).toBe(3);
      expect(await take(k, 20, T0 + 1)).toBe(20);
      expect(await take(k, 20, T0 + 2)).toBe(21);
    });

    test('behavior: a gap (counter ahead, chain still for gapMs) re-synchronises the counter to the chain, not a moment before', async () => {
      const k = key();
      expect(await take(k, 10)).toBe(10);
      expect(await take(k, 10, T0 + 100)).toBe(11);
      expect(await take(k, 10, T0 + GAP_MS - 1)).toBe(12);
      // 10, 11 and 12 were handed out and the chain has not moved for gapMs: they were never sent
      expect(await take(k, 10, T0 + GAP_MS)).toBe(10);
      // the gap is measured again from the re-synchronisation
      expect(await take(k, 10, T0 + GAP_MS + 1)).toBe(11);
      expect(await take(k, 10, T0 + 2 * GAP_MS - 1)).toBe(12);
    });

    test("behavior: the gap is measured from the chain's last move, not from the last take", async () => {
      const k = key();
      expect(await take(k, 5)).toBe(5);
      expect(await take(k, 5, T0 + 1)).toBe(6);
      // the chain moved (5 mined) just before the gap would have passed
      expect(await take(k, 6, T0 + GAP_MS - 1)).toBe(7);
      expect(await take(k, 6, T0 + GAP_MS + 10)).toBe(8);
      // the chain last moved at T0 + GAP_MS - 1: the gap is reached gapMs after that
      expect(await take(k, 6, T0 + 2 * GAP_MS - 2)).toBe(9);
      expect(await take(k, 6, T0 + 2 * GAP_MS - 1)).toBe(6);
    });

    test('behavior: chainStillSince answers since when the takers have seen the chain at that pending nonce; null for another one', async () => {
      const k = key();
      expect(await store.nonces.chainStillSince(k, 5)).toBeNull();
      await take(k, 5);
      await take(k, 5, T0 + 100);
      expect(await store.nonces.chainStillSince(k, 5)).toBe(T0);
      expect(await store.nonces.chainStillSince(k, 6)).toBeNull();
      await take(k, 6, T0 + 200);
      expect(await store.nonces.chainStillSince(k, 6)).toBe(T0 + 200);
    });

    test('behavior: giving back the last nonce taken hands it out again; giving back an older one changes nothing', async () => {
      const k = key();
      expect(await take(k, 0)).toBe(0);
      expect(await take(k, 0, T0 + 1)).toBe(1);
      await store.nonces.giveBack(k, 1);
      expect(await take(k, 0, T0 + 2)).toBe(1);
      expect(await take(k, 0, T0 + 3)).toBe(2);
      await store.nonces.giveBack(k, 1);
      expect(await take(k, 0, T0 + 4)).toBe(3);
      // a give-back of a key never taken is harmless
      await store.nonces.giveBack(key(), 0);
    });

    test('behavior: keys are independent', async () => {
      const [a, b] = [key(), key()];
      expect(await take(a, 4)).toBe(4);
      expect(await take(b, 100)).toBe(100);
      expect(await take(a, 4, T0 + 1)).toBe(5);
      await store.nonces.giveBack(b, 100);
      expect(await take(a, 4, T0 + 2)).toBe(6);
      expect(await take(b, 100, T0 + 3)).toBe(100);
    });

    test('behavior: fifty concurrent takes (the first creating the counter) hand out fifty distinct consecutive nonces', async () => {
      const k = key();
      const nonces = await Promise.all(Array.from({ length: 50 }, (_, n) => take(k, 40, T0 + n)));
      for (const nonce of nonces) expect(nonce >= 40 && nonce < 90).toBe(true);
      if (missingIsolation) {
        console.log(missingIsolation);
        return;
      }
      expect([...nonces].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, n) => 40 + n));
      expect(await take(k, 40, T0 + 50)).toBe(90);
    });
  });
}
