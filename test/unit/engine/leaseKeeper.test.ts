import { SimulatedClock } from '../../../src/domain/clock';
import { createLeaseKeeper, LEASE_SHARE, type LeaseKeeper, type LeaseKeeperOptions } from '../../../src/engine/leaseKeeper';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import type { IntentLeaseRepo } from '../../../src/ports/store';

/** The lease keeper over the memory lease repository, on a simulated clock (its ticks and the leases' times). */

const LEASE_MS = 300;
const TICK_MS = LEASE_MS * LEASE_SHARE.tick;
const WRITTEN_MS = LEASE_MS * LEASE_SHARE.written;
const keepers: LeaseKeeper[] = [];
let clock: SimulatedClock;
const now = (): number => clock.now().getTime();

beforeEach(() => {
  clock = new SimulatedClock(Date.UTC(2026, 0, 1));
});

function keeper(repo: IntentLeaseRepo, owner: string, overrides: Partial<LeaseKeeperOptions> = {}) {
  const lost: string[] = [];
  const orphans: string[] = [];
  const orphansFoundAt: number[] = [];
  let sweeps = 0;
  const k = createLeaseKeeper({
    repo,
    owner,
    leaseMs: LEASE_MS,
    now,
    clock,
    onLost: (ids) => lost.push(...ids),
    onOrphans: async (ids) => {
      orphans.push(...ids);
      orphansFoundAt.push(now());
    },
    onSweep: async () => {
      sweeps++;
    },
    onError: (err) => {
      throw err;
    },
    ...overrides,
  });
  keepers.push(k);
  return { k, lost, orphans, orphansFoundAt, sweeps: () => sweeps };
}

afterEach(async () => {
  await Promise.all(keepers.splice(0).map((k) => k.stop({ handBack: false })));
});

test('behavior: a lease is written for two thirds of the period and kept alive by renewals for as long as the keeper runs', async () => {
  const repo = createMemoryStore().intentLeases;
  const a = keeper(repo, 'a');
  expect(await a.k.acquire('i1')).toBe(true);
  a.k.start();
  expect(await repo.listExpired(now() + WRITTEN_MS - 1, 10)).toEqual([]);
  expect(await repo.listExpired(now() + WRITTEN_MS + 1, 10)).toEqual(['i1']);
  await clock.run(LEASE_MS * 3);
  // three periods later (a lease written at the start would have lapsed long since) it is still held, by a
  expect(await repo.heldAmong(['i1'], now())).toEqual(new Set(['i1']));
  expect(await repo.acquire('i1', 'b', now(), now() + 1_000)).toBe(false);
  expect(a.k.holds('i1')).toBe(true);
  expect(a.lost).toEqual([]);
});

test('behavior: a keeper that stops renewing (its process died) → its intents are found orphaned by another keeper within 2/3 + 1/6 of the lease period', async () => {
  const repo = createMemoryStore().intentLeases;
  const dead = keeper(repo, 'dead');
  expect(await dead.k.acquire('i1')).toBe(true);
  const diedAt = now();
  const alive = keeper(repo, 'alive');
  alive.k.start();
  await clock.run(WRITTEN_MS);
  expect(alive.orphans).toEqual([]); // not before the lease lapses
  await clock.run(LEASE_MS * 2);
  // found at every tick from then on (this test's keeper does not take it)
  expect(new Set(alive.orphans)).toEqual(new Set(['i1']));
  expect(alive.orphansFoundAt[0]! - diedAt).toBeLessThanOrEqual(WRITTEN_MS + TICK_MS);
  expect(await alive.k.acquire('i1')).toBe(true);
});

test('behavior: a lease taken over while its keeper was too slow to renew → that keeper hears it lost at its next renewal and no longer holds it', async () => {
  const repo = createMemoryStore().intentLeases;
  const slow = keeper(repo, 'slow');
  expect(await slow.k.acquire('i1')).toBe(true);
  // the lease lapses (no renewal yet) and another engine takes it
  await clock.run(WRITTEN_MS + 10);
  expect(await repo.acquire('i1', 'other', now(), now() + 10_000)).toBe(true);
  slow.k.start();
  expect(slow.k.holds('i1')).toBe(true);
  await clock.run(TICK_MS);
  expect(slow.lost).toEqual(['i1']);
  expect(slow.k.holds('i1')).toBe(false);
});

test('behavior: a clean stop hands every lease back at once; release gives one back', async () => {
  const repo = createMemoryStore().intentLeases;
  const a = keeper(repo, 'a');
  await a.k.acquire('i1');
  await a.k.acquire('i2');
  await a.k.release('i1');
  expect(a.k.holds('i1')).toBe(false);
  expect(await repo.heldAmong(['i1', 'i2'], now())).toEqual(new Set(['i2']));
  a.k.start();
  await a.k.stop({ handBack: true });
  expect(await repo.heldAmong(['i1', 'i2'], now())).toEqual(new Set());
  expect(await repo.acquire('i2', 'b', now(), now() + 1_000)).toBe(true);
  expect(clock.pendingTimers()).toBe(0);
});

test('behavior: the sweep for never-leased intents runs every 24 ticks, not on every one', async () => {
  const repo = createMemoryStore().intentLeases;
  const a = keeper(repo, 'a', { leaseMs: 60 });
  const tickMs = 60 * LEASE_SHARE.tick;
  a.k.start();
  await clock.run(tickMs * 23);
  expect(a.sweeps()).toBe(0);
  await clock.run(tickMs);
  expect(a.sweeps()).toBe(1);
  await clock.run(tickMs * 36);
  expect(a.sweeps()).toBe(2);
});

test('behavior: a stopped keeper sets no more ticks', async () => {
  const repo = createMemoryStore().intentLeases;
  const a = keeper(repo, 'a');
  a.k.start();
  await clock.run(TICK_MS * 3);
  expect(clock.pendingTimers()).toBe(1);
  await a.k.stop({ handBack: false });
  expect(clock.pendingTimers()).toBe(0);
});
