import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/ports/store';
import { PROBE_ROUNDS, probeIsolatedUpdates } from './repositories.contract';

/** Rounds of the race probe: a server letting two racers through one round in r escapes it about once in r × e runs. */
export const RACE_PROBE_ROUNDS = 200;

/**
 * Second capability probe, for suites that assert one winner of a race over a
 * guarded update (leases, nonce compare-and-swap). The store contract's probe
 * watches concurrent `$inc` results, and on the bundled test server it can
 * pass all its rounds while a guarded race still lets two callers through (a
 * lease race did, in about a fifth of the runs). Each round here races five
 * guarded increments of one counter where only one fits
 * (`usage.incrementIfAtMost`): a repository other than the ones under test,
 * so an adapter bug cannot hide behind the probe.
 */
export async function probeIsolatedRaces(store: Pick<Store, 'usage'>): Promise<{ isolated: boolean; failedRounds: number }> {
  let failedRounds = 0;
  const expiresAt = () => new Date(Date.now() + 60_000);
  for (let round = 0; round < RACE_PROBE_ROUNDS; round++) {
    const key = `race-probe:${randomBytes(8).toString('hex')}`;
    // the counter exists first, so the racers meet in the guarded update, not in the insert (which the unique _id settles)
    await store.usage.increment(key, 0, expiresAt());
    const results = await Promise.all(Array.from({ length: 5 }, () => store.usage.incrementIfAtMost(key, 1, 1, expiresAt())));
    if (results.filter((r) => r !== null).length !== 1) failedRounds++;
  }
  return { isolated: failedRounds === 0, failedRounds };
}

/**
 * Null when the store isolates concurrent guarded updates (both probes pass;
 * the memory store always does), else the `capability missing: …` line to
 * print, ending with what the suite leaves unasserted.
 */
export async function missingRaceIsolation(store: Pick<Store, 'usage' | 'kind'>, unasserted: string): Promise<string | null> {
  if (store.kind !== 'mongo') return null;
  const updates = await probeIsolatedUpdates(store);
  if (!updates.isolated)
    return `capability missing: isolated findAndModify under concurrency (probe: ${updates.failedRounds} of ${PROBE_ROUNDS} rounds repeated a value); ${unasserted}`;
  const races = await probeIsolatedRaces(store);
  if (!races.isolated)
    return `capability missing: isolated guarded updates under concurrency (race probe: ${races.failedRounds} of ${RACE_PROBE_ROUNDS} rounds let two racers through); ${unasserted}`;
  return null;
}
