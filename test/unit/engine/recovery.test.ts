import type { Intent } from '../../../src/domain/intent';
import { resumeOrder } from '../../../src/engine/recovery';
import { deferred } from './deferred';
import { createHarness, usdc, type Harness } from './engineHarness';
import { pendingIntent } from './intentFixture';

/** Resolves once `predicate` holds for a snapshot of `intentId` published on the harness's current bus. */
function whenPublished(h: Harness, intentId: string, predicate: (i: Intent) => boolean): Promise<Intent> {
  return new Promise((resolve) => {
    const off = h.engine.bus.listen({ intentId }, (i) => {
      if (!predicate(i)) return;
      off();
      resolve(i);
    });
  });
}

describe('engine: recovery', () => {
  let h: Harness;

  beforeEach(() => {
    h = createHarness();
  });

  test('behavior: stopped right after a supply hash was persisted (not yet broadcast) → a new engine rebroadcasts those bytes and completes; signed and executed once', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('100'));
    const node = deferred();
    const stopCalled = deferred();
    let stopped: Promise<void> | undefined;
    h.chain.beforeBroadcast = async (signed) => {
      if (signed.kind !== 'supply') return;
      stopped = h.engine.stop();
      stopCalled.resolve();
      await node.promise; // the process "dies" here: these bytes never reach the chain from this engine
    };
    const intent = await h.submit(w.id, { amount: '100' });
    await whenPublished(h, intent.id, (i) => (i.results?.transactions.length ?? 0) === 2);
    // the hook runs after the record is published; how many microtasks later depends on the engine's turns
    await stopCalled.promise;
    await stopped;

    const persisted = await h.store.intents.get(intent.id);
    expect(persisted?.status).toBe('executing');
    const supply = h.chain.signed.find((s) => s.kind === 'supply')!;
    expect(persisted?.results?.transactions[1]).toMatchObject({ kind: 'supply', txHash: supply.txHash, raw: supply.raw, status: 'signed' });
    expect(persisted?.executionPlan?.steps[0]?.txHash).toBe(supply.txHash);
    expect(h.chain.executed).not.toContain(supply.txHash);

    h.chain.beforeBroadcast = undefined;
    const engine2 = h.restart();
    expect(await engine2.start()).toEqual({ resumed: 1 });
    const done = await h.settled(intent.id);
    await engine2.stop();
    node.reject(new Error('node gone'));

    expect(done.status).toBe('completed');
    expect(h.chain.signedCount('supply')).toBe(1);
    expect(h.chain.signedCount('approve')).toBe(1);
    expect(h.chain.executed.filter((x) => x === supply.txHash)).toHaveLength(1);
    expect(h.chain.rebroadcasts).toEqual([supply.txHash]);
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('100'));
  });

  test("behavior: stopped while awaiting a broadcast burn's receipt → a new engine resumes from the receipt, attests and mints; the burn is never sent again", async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('10'));
    const hang = deferred();
    const stopCalled = deferred();
    let stopped: Promise<void> | undefined;
    h.chain.beforeReceipt = async (_chain, hash) => {
      if (hash !== h.chain.signed.find((s) => s.kind === 'burn')?.txHash) return;
      stopped = h.engine.stop();
      stopCalled.resolve();
      await hang.promise;
    };
    const intent = await h.submit(w.id, { action: 'bridge', amount: '10', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' });
    await stopCalled.promise;
    await stopped;
    expect(h.chain.executed).toContain(h.chain.signed[1]?.txHash);
    expect((await h.store.intents.get(intent.id))?.results?.transactions).toHaveLength(2);

    h.chain.beforeReceipt = undefined;
    const engine2 = h.restart();
    await engine2.start();
    const done = await h.settled(intent.id);
    await engine2.stop();
    hang.reject(new Error('node gone'));

    expect(done.status).toBe('completed');
    expect(h.chain.signed.map((s) => s.kind)).toEqual(['approve', 'burn', 'mint']);
    expect(h.chain.rebroadcasts).toEqual([]);
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('9.995'));
  });

  test('behavior: pending and planning intents left by a stopped engine are planned by the next one, in order', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    const base = { walletId: w.id, accountId: 'acct_test', amount: '4', requestedAmount: '4' };
    const planning = pendingIntent({ ...base, id: 'intent_r1', status: 'planning', version: 1, createdAt: '2026-01-01T00:00:01.000Z' });
    const pending = pendingIntent({ ...base, id: 'intent_r2', createdAt: '2026-01-01T00:00:02.000Z' });
    await h.store.intents.insert(pending);
    await h.store.intents.insert(planning);
    await h.engine.stop();

    const engine2 = h.restart();
    expect(await engine2.start()).toEqual({ resumed: 2 });
    const [a, b] = await Promise.all([h.settled('intent_r1'), h.settled('intent_r2')]);
    await engine2.stop();
    expect([a.status, b.status]).toEqual(['completed', 'completed']);
    expect(a.completedAt! <= b.completedAt!).toBe(true);
  });

  test('behavior: an engine that stopped leaves newly submitted intents pending for the next start', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('1'));
    await h.engine.stop();
    const intent = await h.submit(w.id, { amount: '1' });
    expect((await h.store.intents.get(intent.id))?.status).toBe('pending');
    const engine2 = h.restart();
    await engine2.start();
    expect((await h.settled(intent.id)).status).toBe('completed');
    await engine2.stop();
  });

  test('behavior: resume order puts executing before planning before pending, each oldest first', () => {
    const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
    const order = resumeOrder([
      pendingIntent({ id: 'p2', createdAt: at(2) }),
      pendingIntent({ id: 'x3', status: 'executing', createdAt: at(3) }),
      pendingIntent({ id: 'p1', createdAt: at(1) }),
      pendingIntent({ id: 'l4', status: 'planning', createdAt: at(4) }),
    ]);
    expect(order.map((i) => i.id)).toEqual(['x3', 'l4', 'p1', 'p2']);
  });
});
