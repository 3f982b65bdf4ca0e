import type { Clock, TimerId } from '../domain/clock';
import type { IntentLeaseRepo } from '../ports/store';

/** What the lease keeper needs. */
export interface LeaseKeeperOptions {
  repo: IntentLeaseRepo;
  /** This engine's owner id, unique per start. */
  owner: string;
  /**
   * The lease period: the longest an intent waits for another engine after
   * its owner stops abruptly (docs/operations.md, "Several instances").
   */
  leaseMs: number;
  /** The shared clock, ms since the epoch (the database server's, where it has one): what leases are written in. */
  now(): number;
  /** Times the ticks (renewals, take-overs, sweeps). */
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** Leases this engine held and another engine has since taken (its own renewals came too late). */
  onLost(ids: string[]): void;
  /** Intents whose owner stopped renewing (found each tick), for this engine to take over. */
  onOrphans(ids: string[]): Promise<void>;
  /** Every few periods: look for non-final intents that never got a lease (their instance died between insert and lease). */
  onSweep(): Promise<void>;
  onError(err: unknown, what: string): void;
}

/** The leases one engine holds, kept alive while it runs (docs/architecture.md, "Several instances"). */
export interface LeaseKeeper {
  /** Takes or extends the lease of `id`; false when another live engine holds it. */
  acquire(id: string): Promise<boolean>;
  /** Whether this engine still holds the lease of `id`, as far as it knows. */
  holds(id: string): boolean;
  /** Gives the lease of `id` back (its intent is final). */
  release(id: string): Promise<void>;
  /** Starts renewing and looking for orphaned intents. */
  start(): void;
  /** Stops the timers; `handBack` gives every lease back so other engines take over at once (a clean stop). */
  stop(options: { handBack: boolean }): Promise<void>;
}

/**
 * How the lease period is spent: a lease is written for two thirds of it and
 * renewed every sixth, and expired leases are looked for every sixth, so an
 * engine that stops abruptly has its intents taken over at most
 * 2/3 + 1/6 of a period after its last renewal, which leaves a sixth of the
 * period to finish a step that was waiting for a receipt. A renewal may be
 * late by up to half the period before the lease lapses.
 */
export const LEASE_SHARE = { written: 2 / 3, tick: 1 / 6 } as const;

/** Ticks between two sweeps for intents that never got a lease. */
const SWEEP_EVERY_TICKS = 24;

/** Creates the keeper; nothing runs until `start()`. */
export function createLeaseKeeper(o: LeaseKeeperOptions): LeaseKeeper {
  const held = new Set<string>();
  const writtenMs = Math.max(1, Math.round(o.leaseMs * LEASE_SHARE.written));
  const tickMs = Math.max(1, Math.round(o.leaseMs * LEASE_SHARE.tick));
  let timer: TimerId | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let ticks = 0;

  async function renew(): Promise<void> {
    // Only leases taken before this renewal started can be found missing by it.
    const before = [...held];
    const still = new Set(await o.repo.renew(o.owner, o.now() + writtenMs));
    const lost = before.filter((id) => held.has(id) && !still.has(id));
    for (const id of lost) held.delete(id);
    if (lost.length > 0) o.onLost(lost);
  }

  async function takeOrphans(): Promise<void> {
    const expired = await o.repo.listExpired(o.now(), 200);
    const others = expired.filter((id) => !held.has(id));
    if (others.length > 0) await o.onOrphans(others);
  }

  async function tick(): Promise<void> {
    await renew().catch((err: unknown) => o.onError(err, 'renew'));
    if (stopped) return;
    await takeOrphans().catch((err: unknown) => o.onError(err, 'take over'));
    if (stopped || ++ticks % SWEEP_EVERY_TICKS !== 0) return;
    await o.onSweep().catch((err: unknown) => o.onError(err, 'sweep'));
  }

  const schedule = (): void => {
    if (stopped) return;
    timer = o.clock.setTimeout(
      () => {
        running = tick().finally(() => {
          running = undefined;
          schedule();
        });
      },
      tickMs,
      { background: true },
    );
  };

  return {
    async acquire(id) {
      const ok = await o.repo.acquire(id, o.owner, o.now(), o.now() + writtenMs);
      if (ok) held.add(id);
      return ok;
    },
    holds: (id) => held.has(id),
    async release(id) {
      held.delete(id);
      await o.repo.release(id, o.owner).catch((err: unknown) => o.onError(err, 'release'));
    },
    start() {
      stopped = false;
      schedule();
    },
    async stop({ handBack }) {
      stopped = true;
      if (timer !== undefined) o.clock.clearTimeout(timer);
      await running;
      if (!handBack) return;
      held.clear();
      await o.repo.releaseAll(o.owner, o.now()).catch((err: unknown) => o.onError(err, 'hand back'));
    },
  };
}
