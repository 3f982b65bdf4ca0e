import type { Intent } from '../../../src/domain/intent';
import { deferred, flush } from './deferred';
import { createHarness, usdc, type Harness } from './engineHarness';

describe('engine: wallet actor', () => {
  let h: Harness;

  beforeEach(() => {
    h = createHarness();
  });

  afterEach(async () => {
    await h.engine.stop();
  });

  test('behavior: two intents whose sum exceeds the balance → the first completes, the second plans afterwards on fresh balances and fails INSUFFICIENT_FUNDS', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('100'));
    const seen: string[] = [];
    h.engine.bus.listen('all', (i) => seen.push(`${i.id}:${i.status}`));
    const [first, second] = await Promise.all([h.submit(w.id, { amount: '70' }), h.submit(w.id, { amount: '50' })]);
    const [a, b] = await Promise.all([h.settled(first.id), h.settled(second.id)]);

    expect(a.status).toBe('completed');
    expect(b.status).toBe('failed');
    expect(b.error).toMatchObject({ code: 'INSUFFICIENT_FUNDS', details: { required: '50', available: '30' } });
    // B left pending only once A was final
    expect(seen.indexOf(`${second.id}:planning`)).toBeGreaterThan(seen.indexOf(`${first.id}:completed`));
    expect(seen.indexOf(`${first.id}:completed`)).toBeGreaterThan(-1);
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('70'));
  });

  test("behavior: a later intent waits in pending while the wallet's first one executes; other wallets are not held up", async () => {
    const w = await h.wallet();
    const other = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('100'));
    h.chain.fund('base-sepolia', other.address, 'USDC', usdc('5'));
    const gate = deferred();
    h.chain.beforeBroadcast = async (s) => {
      if (s.kind === 'supply' && s.from === w.address) await gate.promise;
    };
    const first = await h.submit(w.id, { amount: '10' });
    const second = await h.submit(w.id, { amount: '10' });
    const elsewhere = await h.submit(other.id, { amount: '5' });

    expect((await h.settled(elsewhere.id)).status).toBe('completed');
    await flush();
    expect((await h.store.intents.get(first.id))?.status).toBe('executing');
    expect((await h.store.intents.get(second.id))?.status).toBe('pending');

    gate.resolve();
    const results: Intent[] = await Promise.all([h.settled(first.id), h.settled(second.id)]);
    expect(results.map((i) => i.status)).toEqual(['completed', 'completed']);
  });
});
