import { createLeaseKeeper, LEASE_SHARE, type LeaseKeeper, type LeaseKeeperOptions } from '../../../src/engine/leaseKeeper';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import type { IntentLeaseRepo } from '../../../src/ports/store';

/** The lease keeper over the memory lease repository, on real timers with a short lease period. */

const LEASE_MS = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const keepers: LeaseKeeper[] = [];

function keeper(repo: IntentLeaseRepo, owner: string, overrides: Partial<LeaseKeeperOptions> = {}) {
  const lost: string[] = [];
  const orphans: string[] = [];
  let sweeps = 0;
  const k = createLeaseKeeper({
    repo,
    owner,
    leaseMs: LEASE_MS,
    now: () => Date.now(),
    onLost: (ids) => lost.push(...ids),
    onOrphans: async (ids) => {
      orphans.push(...ids);
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
  return { k, lost, orphans, sweeps: () => sweeps };
}

afterEach(async () => {
  await Promise.all(keepers.splice(0).map((k) => k.stop({ handBack: false })));
});

test('behavior: a lease is written for two thirds of the period and kept alive by renewals for as long as the keeper runs', async () => {
  const repo = createMemoryStore().intentLeases;
  const a = keeper(repo, 'a');
  expect(await a.k.acquire('i1')).toBe(true);
  a.k.start();
  expect(await repo.listExpired(Date.now() + LEASE_MS * LEASE_SHARE.written + 5, 10)).toEqual(['i1']);
  await sleep(LEASE_MS * 2);
  // three periods' worth of renewals later it is still held, by a
  expect(await repo.heldAmong(['i1'], Date.now())).toEqual(new Set(['i1']));
  expect(await repo.acquire('i1', 'b', Date.now(), Date.now() + 1_000)).toBe(false);
  expect(a.k.holds('i1')).toBe(true);
  expect(a.lost).toEqual([]);
});

test('behavior: a keeper that stops renewing (its process died) → its intents are found orphaned by another keeper within the lease period', async () => {
  const repo = createMemoryStore().intentLeases;
  const dead = keeper(repo, 'dead');
  expect(await dead.k.acquire('i1')).toBe(true);
  const diedAt = Date.now();
  const alive = keeper(repo, 'alive');
  alive.k.start();
  while (alive.orphans.length === 0 && Date.now() - diedAt < LEASE_MS * 3) await sleep(5);
  expect(alive.orphans).toEqual(['i1']);
  expect(Date.now() - diedAt).toBeLessThanOrEqual(LEASE_MS);
  expect(await alive.k.acquire('i1')).toBe(true);
});

test('behavior: a lease taken over while its keeper was too slow to renew → that keeper hears it lost at its next renewal and no longer holds it', async () => {
  const repo = createMemoryStore().intentLeases;
  const slow = keeper(repo, 'slow');
  expect(await slow.k.acquire('i1')).toBe(true);
  // the lease lapses (no renewal yet) and another engine takes it
  await sleep(LEASE_MS * LEASE_SHARE.written + 10);
  expect(await repo.acquire('i1', 'other', Date.now(), Date.now() + 10_000)).toBe(true);
  slow.k.start();
  while (slow.lost.length === 0) await sleep(5);
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
  expect(await repo.heldAmong(['i1', 'i2'], Date.now())).toEqual(new Set(['i2']));
  a.k.start();
  await a.k.stop({ handBack: true });
  expect(await repo.heldAmong(['i1', 'i2'], Date.now())).toEqual(new Set());
  expect(await repo.acquire('i2', 'b', Date.now(), Date.now() + 1_000)).toBe(true);
});

test('behavior: the sweep for never-leased intents runs every 24 ticks, not on every one', async () => {
  const repo = createMemoryStore().intentLeases;
  const a = keeper(repo, 'a', { leaseMs: 60 });
  a.k.start();
  await sleep(60 * LEASE_SHARE.tick * 60);
  expect(a.sweeps()).toBeGreaterThanOrEqual(1);
  expect(a.sweeps()).toBeLessThanOrEqual(2);
});
