import type { Db } from 'mongodb';
import { followServerClock } from '../../../src/store/mongo/serverClock';

/** A database whose `hello` reports a clock `aheadMs` ahead of this machine's. */
const dbAhead = (aheadMs: number): Db => ({ admin: () => ({ command: async () => ({ localTime: new Date(Date.now() + aheadMs) }) }) }) as unknown as Db;

test('behavior: windows are cut on the server clock: a server 5 s ahead moves now() 5 s ahead of this machine', async () => {
  const clock = await followServerClock(dbAhead(5_000));
  try {
    const drift = clock.now().getTime() - Date.now();
    expect(drift).toBeGreaterThan(4_900);
    expect(drift).toBeLessThan(5_100);
    expect(clock.skewMs()).toBeLessThan(-4_900);
  } finally {
    clock.stop();
  }
});

test('error: a server that does not report its clock fails the start of the follower (the store then keeps the local clock)', async () => {
  const silent = { admin: () => ({ command: async () => ({}) }) } as unknown as Db;
  await expect(followServerClock(silent)).rejects.toThrow();
});
