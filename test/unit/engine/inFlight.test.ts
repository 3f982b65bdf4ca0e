import { createHarness, usdc, type Harness } from './engineHarness';
import type { Intent, Step } from '../../../src/domain/intent';
import { MAX_REPLACEMENTS } from '../../../src/engine/executor/followTx';
import { isSubTxRecord, type SubTxRecord } from '../../../src/domain/txRecords';

/** Lets the engine run until `done()` holds (virtual time passes as it waits). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (done()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${what}`);
}

const records = (i: Intent): SubTxRecord[] => (i.results?.transactions ?? []).filter(isSubTxRecord);

describe('engine: transactions in flight are followed to their outcome', () => {
  let h: Harness;

  beforeEach(() => {
    h = createHarness({ engine: { txStuckAfterMs: 10_000 } });
  });

  afterEach(async () => {
    await h.engine.stop();
  });

  test('behavior: a transaction stuck in the mempool is rebroadcast, then replaced at its nonce (at most 3 times); once mined, exactly one per nonce executed', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    h.chain.stall('base-sepolia');
    const intent = await h.submit(w.id, { amount: '10' });
    await until(() => h.chain.replacements.length >= MAX_REPLACEMENTS && h.chain.rebroadcasts.length >= 2, 'three replacements and rebroadcasts');
    // well past the last replacement: still not failed, and no fourth bump
    await until(() => h.chain.rebroadcasts.length >= 6, 'rebroadcasts after the last replacement');
    expect(h.chain.replacements).toHaveLength(MAX_REPLACEMENTS);
    expect((await h.store.intents.get(intent.id))?.status).toBe('executing');

    h.chain.resume('base-sepolia');
    const done = await h.settled(intent.id);
    expect(done.status).toBe('completed');
    const approve = records(done).find((r) => r.kind === 'approve')!;
    // the last replacement was mined; the three hashes before it are kept, none of them mined
    expect(approve.txHash).toBe(h.chain.replacements[MAX_REPLACEMENTS - 1]!.txHash);
    expect(approve.replaced).toHaveLength(MAX_REPLACEMENTS);
    expect(approve.replaced).toContain(h.chain.signed.find((s) => s.kind === 'approve')!.txHash);
    for (const hash of approve.replaced ?? []) expect(h.chain.executed).not.toContain(hash);
    expect(h.chain.executed.filter((x) => [approve.txHash, ...(approve.replaced ?? [])].includes(x))).toHaveLength(1);
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('10'));
  });

  test('behavior: while a step keeps failing it stays executing with attempts, lastError and nextAttemptAt; they are gone once it is mined', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    h.chain.failNext('receipt', 'NETWORK_ERROR', { count: 3 });
    const seen: Step[] = [];
    const intent = await h.submit(w.id, { amount: '10' });
    h.engine.bus.listen({ intentId: intent.id }, (i) => {
      const step = i.executionPlan?.steps[0];
      if (step?.attempts !== undefined) seen.push(step);
    });
    const done = await h.settled(intent.id);
    expect(done.status).toBe('completed');
    expect(seen.map((s) => s.attempts)).toEqual([1, 2, 3]);
    for (const s of seen) {
      expect(s.status).toBe('executing');
      expect(s.lastError).toMatchObject({ code: 'NETWORK_ERROR' });
      expect(Date.parse(s.nextAttemptAt!)).toBeGreaterThan(Date.parse(s.startedAt!));
    }
    const step = done.executionPlan!.steps[0]!;
    expect(step.attempts).toBeUndefined();
    expect(step.lastError).toBeUndefined();
    expect(step.nextAttemptAt).toBeUndefined();
  });

  test('behavior: a mint whose destination fails 20 times after a confirmed burn completes; the burn and the mint are signed once', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('20'));
    h.chain.failNext('send', 'NETWORK_ERROR', { count: 20, kind: 'mint' });
    const done = await h.settled((await h.submit(w.id, { action: 'bridge', amount: '20', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' })).id);
    expect(done.status).toBe('completed');
    expect(h.chain.signedCount('burn')).toBe(1);
    expect(h.chain.signedCount('mint')).toBe(1);
    expect(h.chain.balance('arbitrum-sepolia', w.address, 'USDC')).toBe(0n);
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('19.99'));
    // waits doubled, and none over the in-flight cap
    expect(Math.max(...h.clock.delays)).toBeLessThanOrEqual(30_000);
  });

  test('error: a reverted supply leaves no allowance: the approve is revoked (approve to 0) before the intent fails', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    h.chain.revertNext('supply');
    const done = await h.settled((await h.submit(w.id, { amount: '10' })).id);
    expect(done.error).toMatchObject({ code: 'DEPOSIT_FAILED' });
    expect(h.chain.allowance('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(0n);
    expect(records(done).map((r) => `${r.kind}:${r.status}`)).toEqual(['approve:confirmed', 'supply:reverted', 'revoke:confirmed']);
  });

  test('error: a signed revoke whose receipt keeps failing past the bounded retries is followed to its receipt before the intent fails', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    h.chain.revertNext('supply');
    let armed = false;
    h.chain.beforeReceipt = async (_chain, hash) => {
      // the revoke is signed and broadcast: its receipt now fails more times than the bounded retries allow
      if (!armed && h.chain.signed.some((s) => s.kind === 'revoke' && s.txHash === hash)) {
        armed = true;
        h.chain.failNext('receipt', 'NETWORK_ERROR', { count: 8 });
      }
    };
    const done = await h.settled((await h.submit(w.id, { amount: '10' })).id);
    expect(armed).toBe(true);
    expect(done.error).toMatchObject({ code: 'DEPOSIT_FAILED' });
    expect(records(done).map((r) => `${r.kind}:${r.status}`)).toEqual(['approve:confirmed', 'supply:reverted', 'revoke:confirmed']);
    expect(h.chain.signedCount('revoke')).toBe(1);
  });

  test('error: a reverted burn leaves no allowance to the bridge', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('20'));
    h.chain.revertNext('burn');
    const done = await h.settled((await h.submit(w.id, { action: 'bridge', amount: '20', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' })).id);
    expect(done.error).toMatchObject({ code: 'BRIDGE_FAILED' });
    expect(h.chain.allowance('arbitrum-sepolia', w.address, 'bridge', 'USDC')).toBe(0n);
    expect(h.chain.signedCount('mint')).toBe(0);
  });

  test('behavior: a burn whose message another relayer already minted is not minted again: the observed mint is recorded', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('20'));
    // as the burn's receipt is read, someone else relays its message to the destination
    h.chain.beforeReceipt = async () => {
      const burn = h.chain.signed.find((s) => s.kind === 'burn');
      if (burn !== undefined) h.chain.relayMint('base-sepolia', burn.txHash);
    };
    const done = await h.settled((await h.submit(w.id, { action: 'bridge', amount: '20', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' })).id);
    expect(done.status).toBe('completed');
    expect(h.chain.signedCount('mint')).toBe(0);
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('19.99'));
    expect(records(done).find((r) => r.kind === 'mint')).toMatchObject({ status: 'confirmed' });
  });
});
