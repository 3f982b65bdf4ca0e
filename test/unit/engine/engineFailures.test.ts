import { createHarness, usdc, type Harness } from './engineHarness';
import { ServiceError } from '../../../src/domain/errors/base';
import { WouldRevertError } from '../../../src/ports/chain';
import { isSubTxRecord } from '../../../src/domain/txRecords';
import { keyProviderUnavailable } from '../../../src/domain/errors/keys';

describe('engine: failures and retries', () => {
  let h: Harness;

  beforeEach(() => {
    h = createHarness();
  });

  afterEach(async () => {
    await h.engine.stop();
  });

  test('error: a reverted burn in the second bridge → BRIDGE_FAILED, failedStep 2, completedSteps 1, nothing after it sent', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('60'));
    h.chain.fund('ethereum-sepolia', w.address, 'USDC', usdc('50'));
    h.chain.revertNext('burn', { chain: 'ethereum-sepolia' });
    const done = await h.settled((await h.submit(w.id, { amount: '100' })).id);

    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'BRIDGE_FAILED', details: { step: 2, type: 'bridge', kind: 'burn', chain: 'ethereum-sepolia' } });
    expect(done.results).toMatchObject({ failedStep: 2, completedSteps: 1 });
    expect(done.executionPlan?.steps.map((s) => s.status)).toEqual(['completed', 'failed', 'pending']);
    const burn = h.chain.signed.filter((s) => s.kind === 'burn')[1];
    // the reverted transaction still spent gas, and the record says so
    expect(done.results?.transactions.find((t) => t.txHash === burn?.txHash)).toMatchObject({ status: 'reverted', gasUsed: '120000' });
    expect(h.chain.signedCount('mint')).toBe(1);
    expect(h.chain.signedCount('supply')).toBe(0);
    expect(done.completedAt).toBeUndefined();
  });

  test('error: a reverted supply → DEPOSIT_FAILED with failedStep 1 and completedSteps 0', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    h.chain.revertNext('supply');
    const done = await h.settled((await h.submit(w.id, { amount: '10' })).id);
    expect(done.error).toMatchObject({ code: 'DEPOSIT_FAILED', details: { step: 1, kind: 'supply' } });
    expect(done.results).toMatchObject({ failedStep: 1, completedSteps: 0 });
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('10'));
  });

  test('error: a supply whose gas estimation reverts is not sent: DEPOSIT_FAILED with the revert reason, simulated, no txHash, no gas', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    h.chain.throwNext('send', new WouldRevertError('base-sepolia', 'supply', 'ERC20: transfer amount exceeds balance'), { kind: 'supply' });
    const done = await h.settled((await h.submit(w.id, { amount: '10' })).id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({
      code: 'DEPOSIT_FAILED',
      details: { step: 1, kind: 'supply', simulated: true, reason: 'ERC20: transfer amount exceeds balance' },
    });
    expect(h.chain.signedCount('supply')).toBe(0);
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('10'));
  });

  test('behavior: a mint whose estimation reverts after a confirmed burn is retried, never failed', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('10'));
    h.chain.throwNext('send', new WouldRevertError('base-sepolia', 'mint', 'attestation not yet valid'), { kind: 'mint' });
    const done = await h.settled((await h.submit(w.id, { action: 'bridge', amount: '10', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' })).id);
    expect(done.status).toBe('completed');
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('9.995'));
  });

  test('error: a reverted withdraw → WITHDRAW_FAILED', async () => {
    const w = await h.wallet();
    h.chain.supplyPosition('base-sepolia', w.address, 'aave-v3', 'USDC', usdc('10'));
    h.chain.revertNext('withdraw');
    const done = await h.settled((await h.submit(w.id, { action: 'withdraw', amount: '10', chain: 'base-sepolia' })).id);
    expect(done.error).toMatchObject({ code: 'WITHDRAW_FAILED', details: { step: 1 } });
    expect(done.results?.failedStep).toBe(1);
  });

  test('behavior: NETWORK_ERROR/TIMEOUT at every stage are retried with exponential back-off and the intent completes, each transaction signed once', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('100'));
    h.chain.failNext('rates', 'NETWORK_ERROR', { count: 2 });
    h.chain.failNext('send', 'TIMEOUT', { kind: 'burn' });
    h.chain.failNext('broadcast', 'NETWORK_ERROR', { kind: 'supply', count: 2 });
    h.chain.failNext('attest', 'NETWORK_ERROR');
    h.chain.failNext('receipt', 'TIMEOUT', { count: 3 });
    const done = await h.settled((await h.submit(w.id, { amount: '100' })).id);

    expect(done.status).toBe('completed');
    expect(h.chain.signed.map((s) => s.kind)).toEqual(['approve', 'burn', 'mint', 'approve', 'supply']);
    expect(new Set(h.chain.executed).size).toBe(5);
    // a broadcast that failed after signing is resumed by rebroadcasting the persisted bytes
    expect(h.chain.rebroadcasts).toEqual([h.chain.signed[4]?.txHash]);
    // rates ×2, approve receipt ×3, burn send, attest, supply broadcast + its rebroadcast
    expect(h.clock.delays.filter((d) => d > 0)).toEqual([100, 200, 100, 200, 400, 100, 100, 100, 200]);
  });

  test('error: transient errors beyond the last attempt fail the intent at its step with that code', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    h.chain.failNext('send', 'NETWORK_ERROR', { kind: 'supply', count: 5 });
    const done = await h.settled((await h.submit(w.id, { amount: '10' })).id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'NETWORK_ERROR', details: { step: 1, kind: 'supply', attempts: 5, txHash: null } });
    expect(done.results).toMatchObject({ failedStep: 1, completedSteps: 0 });
    expect(h.clock.delays.filter((d) => d > 0)).toEqual([100, 200, 400, 800]);
  });

  test('behavior: a key provider out of reach after the first signature is waited out beyond the last attempt: the intent completes, each transaction signed once', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    // the approve is signed; then the token answers nothing for 8 tries of the supply (the bound before signing is 5)
    for (let i = 0; i < 8; i++) h.chain.throwNext('send', keyProviderUnavailable('pkcs11'), { kind: 'supply' });
    const done = await h.settled((await h.submit(w.id, { amount: '10' })).id);
    expect(done.status).toBe('completed');
    const supply = (done.results?.transactions ?? []).filter(isSubTxRecord).filter((t) => t.kind === 'supply');
    expect(supply).toHaveLength(1);
  });

  test('error: a key provider out of reach before anything is signed fails the intent within the bounded retries, nothing moved', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    for (let i = 0; i < 5; i++) h.chain.throwNext('send', keyProviderUnavailable('pkcs11'), { kind: 'approve' });
    const done = await h.settled((await h.submit(w.id, { amount: '10' })).id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'NETWORK_ERROR', details: { service: 'keyProvider', attempts: 5, txHash: null } });
    expect(done.results?.completedSteps).toBe(0);
  });

  test('error: chain reads failing beyond the retries fail the intent in planning', async () => {
    const w = await h.wallet();
    h.chain.failNext('holdings', 'TIMEOUT', { count: 5 });
    const done = await h.settled((await h.submit(w.id, { amount: '10' })).id);
    expect(done.status).toBe('failed');
    expect(done.executionPlan).toBeNull();
    expect(done.error?.code).toBe('TIMEOUT');
  });

  test("behavior: an unexpected error after a confirmed burn does not end the bridge: it is retried, the mint lands, then the wallet's next intent runs", async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    h.chain.throwNext('attest', new TypeError('attestation service bug'));
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('10'));
    const first = await h.submit(w.id, { action: 'bridge', amount: '5', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' });
    const second = await h.submit(w.id, { amount: '10' });
    const bridged = await h.settled(first.id);
    expect(bridged.status).toBe('completed');
    expect(bridged.error).toBeUndefined();
    expect(h.chain.signedCount('burn')).toBe(1);
    expect(h.chain.signedCount('mint')).toBe(1);
    // 5 burned on arbitrum-sepolia, 5 minus the 0.05% fee minted on base-sepolia: nothing stranded.
    expect(h.chain.balance('arbitrum-sepolia', w.address, 'USDC')).toBe(usdc('5'));
    expect((await h.settled(second.id)).status).toBe('completed');
  });

  test('behavior: attestation failing 3 times (non-transient errors) after a confirmed burn → the intent completes and the destination holds the funds', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('10'));
    for (let i = 0; i < 3; i++) h.chain.throwNext('attest', new ServiceError('BRIDGE_FAILED', 'attester unavailable'));
    const done = await h.settled((await h.submit(w.id, { action: 'bridge', amount: '10', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' })).id);
    expect(done.status).toBe('completed');
    expect(h.chain.balance('arbitrum-sepolia', w.address, 'USDC')).toBe(0n);
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('9.995'));
  });

  test('behavior: transient errors beyond the last attempt at the mint do not fail a burned bridge; it completes later', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('10'));
    h.chain.failNext('attest', 'NETWORK_ERROR', { count: 12 });
    const done = await h.settled((await h.submit(w.id, { action: 'bridge', amount: '10', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' })).id);
    expect(done.status).toBe('completed');
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('9.995'));
  });

  test('behavior: a store write failing right after the burn receipt leaves the intent open; it completes once the store recovers, nothing signed twice', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('10'));
    const update = h.store.intents.update.bind(h.store.intents);
    let failures = 0;
    h.store.intents.update = async (intent, expected) => {
      const burnConfirmed = intent.results?.transactions.some((t) => isSubTxRecord(t) && t.kind === 'burn' && t.status === 'confirmed');
      if (burnConfirmed && failures < 3) {
        failures++;
        throw new Error('MongoNetworkError: connection reset (injected)');
      }
      return update(intent, expected);
    };
    const done = await h.settled((await h.submit(w.id, { action: 'bridge', amount: '10', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' })).id);
    expect(failures).toBe(3);
    expect(done.status).toBe('completed');
    expect(h.chain.signedCount('burn')).toBe(1);
    expect(h.chain.signedCount('mint')).toBe(1);
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('9.995'));
  });

  test('behavior: the store down after the burn receipt until a restart: the intent stays open, and the restarted engine completes it', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('10'));
    const update = h.store.intents.update.bind(h.store.intents);
    let down = true;
    let refused = 0;
    h.store.intents.update = async (intent, expected) => {
      if (down && intent.results?.transactions.some((t) => isSubTxRecord(t) && t.kind === 'burn' && t.status === 'confirmed')) {
        refused++;
        throw new Error('MongoServerSelectionError: no primary (injected)');
      }
      return update(intent, expected);
    };
    const submitted = await h.submit(w.id, { action: 'bridge', amount: '10', fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' });
    while (refused < 5) await new Promise((r) => setImmediate(r));
    await h.engine.stop();
    const open = await h.store.intents.get(submitted.id);
    expect(open?.status).toBe('executing');
    down = false;
    const restarted = h.restart();
    expect((await restarted.start()).resumed).toBe(1);
    const done = await h.settled(submitted.id);
    expect(done.status).toBe('completed');
    expect(h.chain.signedCount('burn')).toBe(1);
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('9.995'));
    await restarted.stop();
  });

  test('error: an unexpected error while planning fails the intent from planning', async () => {
    const w = await h.wallet();
    h.chain.throwNext('rates', new Error('boom'));
    const done = await h.settled((await h.submit(w.id, { amount: '1' })).id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { stage: 'planning' } });
    expect(done.results).toBeUndefined();
  });
});
