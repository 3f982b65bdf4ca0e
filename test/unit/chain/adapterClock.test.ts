import type { Db } from 'mongodb';
import type { Hex } from 'viem';
import { SimulatedClock } from '../../../src/domain/clock';
import { findReceipt } from '../../../src/chain/viem/receipts';
import type { ReceiptContext } from '../../../src/chain/viem/toReceipt';
import { takeNonce } from '../../../src/chain/viem/sharedNonces';
import { createMemoryNonces } from '../../../src/store/memory/memoryNonces';
import { followServerClock } from '../../../src/store/mongo/serverClock';

/**
 * The adapters tell time by the clock they are given: driven by a simulated
 * clock, waits of minutes pass at once, and the times they record are its.
 */
describe('adapters on an injected clock', () => {
  const start = new Date('2030-01-01T00:00:00.000Z');

  test('behavior: findReceipt polls and gives up on the injected clock (ten minutes of waiting pass at once)', async () => {
    const clock = new SimulatedClock(start);
    let polls = 0;
    const ctx = {
      access: {
        call: async () => {
          polls++;
          return null;
        },
      },
      prices: {},
      pollMs: 60_000,
      clock,
    } as unknown as ReceiptContext & { pollMs: number; clock: SimulatedClock };
    const answer = findReceipt(ctx, 'base-sepolia', ['0x01' as Hex], 10 * 60_000);
    await clock.run(10 * 60_000);
    await expect(answer).resolves.toBeNull();
    // one poll at once and one per minute of simulated time: the wait was the clock's, not the process's
    expect(polls).toBe(11);
  });

  test('behavior: a shared nonce gap is measured on the injected clock: the nonce is taken again once gapMs of its time has passed', async () => {
    const clock = new SimulatedClock(start);
    const repo = createMemoryNonces();
    const key = '84532:0xtank';
    await repo.take(key, 5, clock.now().getTime(), 60_000); // taken by another instance, never sent
    let reads = 0;
    const held = takeNonce({
      repo,
      key,
      pending: 5,
      readPending: async () => {
        reads++;
        return 5;
      },
      gapMs: 60_000,
      pollMs: 1_000,
      clock,
    });
    await clock.run(61_000);
    await expect(held).resolves.toMatchObject({ nonce: 5 });
    expect(reads).toBeGreaterThanOrEqual(59);
  });

  test('behavior: the store follows the database server’s time against the injected clock, and measures it again on that clock every minute', async () => {
    const clock = new SimulatedClock(start);
    let serverAheadMs = 5_000;
    const db = { admin: () => ({ command: async () => ({ localTime: new Date(clock.now().getTime() + serverAheadMs) }) }) } as unknown as Db;
    const server = await followServerClock(db, clock);
    try {
      expect(server.now().toISOString()).toBe('2030-01-01T00:00:05.000Z');
      serverAheadMs = 9_000;
      await clock.run(60_000);
      expect(server.now().toISOString()).toBe('2030-01-01T00:01:09.000Z');
    } finally {
      server.stop();
    }
    expect(clock.pendingTimers()).toBe(0);
  });
});
