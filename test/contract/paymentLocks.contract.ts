import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/ports/store';
import { missingRaceIsolation } from './raceProbe';

/**
 * The PaymentLockRepo contract of src/ports/store.ts, run by every adapter
 * (paymentLocks.memory.test.ts, paymentLocks.mongo.test.ts). Keys and owners
 * are random, so the tests share one store; instants are plain numbers
 * passed in (the repository reads no clock).
 */

const hex = (n: number) => randomBytes(n).toString('hex');
const payer = () => `eip155:84532:0x${hex(20)}`;
const owner = () => `read_${hex(8)}`;
const T0 = 1_800_000_000_000;

type ContractStore = Pick<Store, 'paymentLocks' | 'usage' | 'kind' | 'close'>;

export function describePaymentLocksContract(name: string, makeStore: () => Promise<ContractStore>): void {
  describe(`payment locks contract: ${name}`, () => {
    let store: ContractStore;
    /** Null when this server isolates concurrent guarded updates (raceProbe.ts); else the capability line to print. */
    let missingIsolation: string | null = null;
    beforeAll(async () => {
      store = await makeStore();
      missingIsolation = await missingRaceIsolation(store, 'one-winner lock races not asserted');
    });
    afterAll(async () => {
      await store?.close();
    });

    test('behavior: a free lock is granted; another owner is refused while it is live (through its last instant); its owner takes it again', async () => {
      const key = payer();
      const [a, b] = [owner(), owner()];
      expect(await store.paymentLocks.acquire(key, a, T0, T0 + 1000)).toBe(true);
      expect(await store.paymentLocks.acquire(key, b, T0 + 500, T0 + 1500)).toBe(false);
      expect(await store.paymentLocks.acquire(key, b, T0 + 1000, T0 + 2000)).toBe(false);
      expect(await store.paymentLocks.acquire(key, a, T0 + 600, T0 + 3000)).toBe(true);
      expect(await store.paymentLocks.acquire(key, b, T0 + 2000, T0 + 4000)).toBe(false);
      // another payer's lock is independent
      expect(await store.paymentLocks.acquire(payer(), b, T0, T0 + 1000)).toBe(true);
    });

    test('behavior: a lock whose holder never released it (a crash) is free once its lease ran out', async () => {
      const key = payer();
      const [crashed, next] = [owner(), owner()];
      expect(await store.paymentLocks.acquire(key, crashed, T0, T0 + 1000)).toBe(true);
      expect(await store.paymentLocks.acquire(key, next, T0 + 1001, T0 + 2000)).toBe(true);
      // the crashed holder, waking late, neither takes it back nor frees it
      expect(await store.paymentLocks.acquire(key, crashed, T0 + 1002, T0 + 3000)).toBe(false);
      await store.paymentLocks.release(key, crashed);
      expect(await store.paymentLocks.acquire(key, owner(), T0 + 1003, T0 + 3000)).toBe(false);
    });

    test('behavior: release frees the lock for the next owner at once; a release by another owner, or of an unknown key, changes nothing', async () => {
      const key = payer();
      const [a, b] = [owner(), owner()];
      expect(await store.paymentLocks.acquire(key, a, T0, T0 + 60_000)).toBe(true);
      await store.paymentLocks.release(key, b);
      expect(await store.paymentLocks.acquire(key, b, T0 + 1, T0 + 60_000)).toBe(false);
      await store.paymentLocks.release(key, a);
      await store.paymentLocks.release(key, a);
      await store.paymentLocks.release(payer(), a);
      expect(await store.paymentLocks.acquire(key, b, T0 + 2, T0 + 60_000)).toBe(true);
    });

    test('behavior: fifty owners racing for one lock (free, then expired): exactly one wins', async () => {
      for (const round of [0, 1]) {
        const key = payer();
        if (round === 1) await store.paymentLocks.acquire(key, owner(), T0 - 2000, T0 - 1000);
        const owners = Array.from({ length: 50 }, owner);
        const wins = await Promise.all(owners.map((o) => store.paymentLocks.acquire(key, o, T0, T0 + 1000)));
        const winners = owners.filter((_, n) => wins[n]);
        if (missingIsolation) expect(winners.length).toBeGreaterThanOrEqual(1);
        else expect(winners).toHaveLength(1);
        // whoever won holds it: a newcomer is refused
        expect(await store.paymentLocks.acquire(key, owner(), T0 + 1, T0 + 1000)).toBe(false);
      }
      if (missingIsolation) console.log(missingIsolation);
    });
  });
}
