import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/ports/store';
import { missingRaceIsolation } from './raceProbe';

/**
 * The IntentLeaseRepo contract of src/ports/store.ts, run by every adapter
 * (intentLeases.memory.test.ts, intentLeases.mongo.test.ts). Intent ids and
 * owners are random, so the tests share one store; each test uses its own
 * span of instants (ms), far from the others', so `listExpired` (which sees
 * every lease) only finds the leases of the test that asks.
 */

const hex = (n: number) => randomBytes(n).toString('hex');
const intentId = () => `intent_${hex(16)}`;
const owner = () => `engine_${hex(8)}`;
/** A test's own span of instants: `span(n)` starts at n × 10¹² ms, every test's leases stay inside their span. */
const span = (n: number) => n * 1e12;

type ContractStore = Pick<Store, 'intentLeases' | 'usage' | 'kind' | 'close'>;

export function describeIntentLeasesContract(name: string, makeStore: () => Promise<ContractStore>): void {
  describe(`intent leases contract: ${name}`, () => {
    let store: ContractStore;
    /** Null when this server isolates concurrent guarded updates (raceProbe.ts); else the capability line to print. */
    let missingIsolation: string | null = null;
    beforeAll(async () => {
      store = await makeStore();
      missingIsolation = await missingRaceIsolation(store, 'one-winner lease races not asserted');
    });
    afterAll(async () => {
      await store?.close();
    });

    /** Which of `owners` holds the lease of `id` (renew lists what an owner holds; renewing to `untilMs` keeps it held). */
    async function holderOf(id: string, owners: readonly string[], untilMs: number): Promise<string[]> {
      const holders: string[] = [];
      for (const o of owners) if ((await store.intentLeases.renew(o, untilMs)).includes(id)) holders.push(o);
      return holders;
    }

    test('behavior: a free lease is granted; another owner is refused while it is live; its owner re-acquires and extends it', async () => {
      const t0 = span(1);
      const id = intentId();
      const [a, b] = [owner(), owner()];
      expect(await store.intentLeases.acquire(id, a, t0, t0 + 1000)).toBe(true);
      expect(await store.intentLeases.acquire(id, b, t0 + 500, t0 + 1500)).toBe(false);
      // at its last held instant the lease is still live
      expect(await store.intentLeases.acquire(id, b, t0 + 1000, t0 + 2000)).toBe(false);
      expect(await store.intentLeases.acquire(id, a, t0 + 600, t0 + 3000)).toBe(true);
      // past the first expiry, the extension holds
      expect(await store.intentLeases.acquire(id, b, t0 + 2000, t0 + 4000)).toBe(false);
      expect(await store.intentLeases.heldAmong([id], t0 + 3000)).toEqual(new Set([id]));
      expect(await store.intentLeases.heldAmong([id], t0 + 3001)).toEqual(new Set());
    });

    test("behavior: once a lease expires another owner takes it, and the former owner's renew no longer lists it", async () => {
      const t0 = span(2);
      const id = intentId();
      const kept = intentId();
      const [a, b] = [owner(), owner()];
      expect(await store.intentLeases.acquire(id, a, t0, t0 + 1000)).toBe(true);
      expect(await store.intentLeases.acquire(kept, a, t0, t0 + 1000)).toBe(true);
      expect(await store.intentLeases.acquire(id, b, t0 + 1001, t0 + 2000)).toBe(true);
      expect(await store.intentLeases.renew(a, t0 + 5000)).toEqual([kept]);
      expect(await store.intentLeases.renew(b, t0 + 5000)).toEqual([id]);
      // the former owner cannot take it back while the new one holds it
      expect(await store.intentLeases.acquire(id, a, t0 + 1002, t0 + 6000)).toBe(false);
    });

    test("behavior: renew extends only the owner's own leases and resolves with exactly the ids it holds", async () => {
      const t0 = span(3);
      const [a, b] = [owner(), owner()];
      const mine = [intentId(), intentId(), intentId()];
      const theirs = intentId();
      for (const id of mine) expect(await store.intentLeases.acquire(id, a, t0, t0 + 1000)).toBe(true);
      expect(await store.intentLeases.acquire(theirs, b, t0, t0 + 1000)).toBe(true);
      expect((await store.intentLeases.renew(a, t0 + 10_000)).sort()).toEqual([...mine].sort());
      expect(await store.intentLeases.heldAmong([...mine, theirs], t0 + 9_000)).toEqual(new Set(mine));
      expect(await store.intentLeases.renew(owner(), t0 + 10_000)).toEqual([]);
    });

    test('behavior: release by another owner changes nothing; release by the owner frees the lease at once', async () => {
      const t0 = span(4);
      const id = intentId();
      const [a, b] = [owner(), owner()];
      expect(await store.intentLeases.acquire(id, a, t0, t0 + 1000)).toBe(true);
      await store.intentLeases.release(id, b);
      expect(await store.intentLeases.heldAmong([id], t0)).toEqual(new Set([id]));
      expect(await store.intentLeases.acquire(id, b, t0, t0 + 1000)).toBe(false);
      await store.intentLeases.release(id, a);
      expect(await store.intentLeases.heldAmong([id], t0)).toEqual(new Set());
      expect(await store.intentLeases.acquire(id, b, t0, t0 + 1000)).toBe(true);
      // releasing a lease twice, or one never taken, is harmless
      await store.intentLeases.release(id, a);
      await store.intentLeases.release(intentId(), a);
      expect(await store.intentLeases.renew(b, t0 + 1000)).toEqual([id]);
    });

    test("behavior: releaseAll gives back every lease of the owner and none of another's: they are listed expired at once, for others to take over", async () => {
      const t0 = span(5);
      const [a, b] = [owner(), owner()];
      const mine = [intentId(), intentId()];
      const theirs = intentId();
      for (const id of mine) await store.intentLeases.acquire(id, a, t0, t0 + 1000);
      await store.intentLeases.acquire(theirs, b, t0, t0 + 1000);
      await store.intentLeases.releaseAll(a, t0);
      expect(await store.intentLeases.heldAmong([...mine, theirs], t0)).toEqual(new Set([theirs]));
      const expired = await store.intentLeases.listExpired(t0, 1_000);
      for (const id of mine) expect(expired).toContain(id);
      expect(expired).not.toContain(theirs);
      expect(await store.intentLeases.renew(a, t0 + 1000)).toEqual([]);
      for (const id of mine) expect(await store.intentLeases.acquire(id, b, t0, t0 + 1000)).toBe(true);
    });

    test('behavior: listExpired lists the leases expired before now, oldest expiry first, at most `limit`; live ones are left out', async () => {
      // the smallest instants of the suite: no other test's lease has expired by then
      const t0 = 1_000_000;
      const o = owner();
      // acquired out of expiry order, so the order listed is the store's sort, not insertion
      const seeded = [300, 100, 400, 200].map((after) => ({ id: intentId(), until: t0 + after }));
      for (const { id, until } of seeded) expect(await store.intentLeases.acquire(id, o, t0, until)).toBe(true);
      await store.intentLeases.acquire(intentId(), owner(), t0, t0 + 10_000);
      const oldestFirst = [...seeded].sort((x, y) => x.until - y.until).map((l) => l.id);
      expect(await store.intentLeases.listExpired(t0 + 1000, 10)).toEqual(oldestFirst);
      expect(await store.intentLeases.listExpired(t0 + 1000, 2)).toEqual(oldestFirst.slice(0, 2));
      // a lease expiring exactly now is still held
      expect(await store.intentLeases.listExpired(t0 + 300, 10)).toEqual(oldestFirst.slice(0, 2));
      expect(await store.intentLeases.listExpired(t0 + 1000, 0)).toEqual([]);
      // taken over, a lease is no longer expired
      await store.intentLeases.acquire(oldestFirst[0]!, owner(), t0 + 1000, t0 + 10_000);
      expect(await store.intentLeases.listExpired(t0 + 1000, 10)).toEqual(oldestFirst.slice(1));
    });

    test('behavior: heldAmong answers which of the ids have a live lease (unknown and expired ones are not held)', async () => {
      const t0 = span(6);
      const [held, expired, unknown] = [intentId(), intentId(), intentId()];
      await store.intentLeases.acquire(held, owner(), t0, t0 + 1000);
      await store.intentLeases.acquire(expired, owner(), t0, t0 + 10);
      expect(await store.intentLeases.heldAmong([held, expired, unknown], t0 + 500)).toEqual(new Set([held]));
      expect(await store.intentLeases.heldAmong([], t0)).toEqual(new Set());
    });

    test('behavior: five owners racing for one lease (free, then expired): exactly one wins and holds it', async () => {
      const t0 = span(7);
      const owners = [owner(), owner(), owner(), owner(), owner()];
      for (const [round, id] of [intentId(), intentId()].entries()) {
        if (round === 1) await store.intentLeases.acquire(id, owner(), t0 - 2000, t0 - 1000);
        const wins = await Promise.all(owners.map((o) => store.intentLeases.acquire(id, o, t0, t0 + 1000)));
        const winners = owners.filter((_, n) => wins[n]);
        const holders = await holderOf(id, owners, t0 + 1000);
        expect(holders).toHaveLength(1);
        if (missingIsolation) expect(winners.length).toBeGreaterThanOrEqual(1);
        else expect(winners).toEqual(holders);
      }
      if (missingIsolation) console.log(missingIsolation);
    });
  });
}
