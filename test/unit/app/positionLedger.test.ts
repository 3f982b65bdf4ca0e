import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { createReadCaches } from '../../../src/app/caches';
import { getBalances } from '../../../src/app/balances/getBalances';
import { earnedOf } from '../../../src/app/balances/earnings';
import { positionLedgerHook } from '../../../src/app/balances/positionLedger';
import { applyEntry, principalsOf } from '../../../src/app/balances/principal';
import type { ChainHoldings, ChainPort } from '../../../src/ports/chain';
import type { PositionLedgerEntry, Store } from '../../../src/ports/store';
import type { Intent, Step } from '../../../src/domain/intent';
import type { Wallet } from '../../../src/domain/types';

const WALLET: Wallet = {
  id: 'svc_wallet_ledger',
  accountId: 'acct',
  userId: 'u',
  address: '0x00000000000000000000000000000000000000aa',
  evmAddress: '0x00000000000000000000000000000000000000aa',
  chainType: 'ethereum',
  chains: ['arbitrum-sepolia', 'base-sepolia'],
  createdAt: '2026-01-01T00:00:00.000Z',
} as Wallet;

/** 6-decimal USDC in smallest units. */
const usdc = (n: number): bigint => BigInt(Math.round(n * 1_000_000));

function entry(kind: 'deposit' | 'withdraw', amount: bigint, at: string, over: Partial<PositionLedgerEntry> = {}): PositionLedgerEntry {
  return {
    intentId: `intent_${at}`,
    stepIndex: 0,
    walletId: WALLET.id,
    chain: 'base-sepolia',
    protocol: 'aave-v3',
    asset: 'USDC',
    kind,
    amount: amount.toString(),
    at,
    ...over,
  };
}

describe('the principal rule: interest first', () => {
  test('behavior: a deposit adds what it supplied; two deposits add up', () => {
    const p = principalsOf([entry('deposit', usdc(100), 't1'), entry('deposit', usdc(50), 't2')]);
    expect(p.get('base-sepolia/aave-v3/USDC')).toBe(usdc(150));
  });

  test('behavior: a partial withdraw takes the interest first: 100 supplied, 105 held, 30 withdrawn leaves a principal of 75 (what remains)', () => {
    const p = principalsOf([entry('deposit', usdc(100), 't1'), entry('withdraw', usdc(30), 't2', { positionAfter: usdc(75).toString() })]);
    expect(p.get('base-sepolia/aave-v3/USDC')).toBe(usdc(75));
  });

  test('behavior: a withdraw no larger than the interest leaves the principal whole (100 supplied, 105 held, 3 withdrawn)', () => {
    expect(applyEntry(usdc(100), { kind: 'withdraw', amount: usdc(3).toString(), positionAfter: usdc(102).toString() })).toBe(usdc(100));
  });

  test('behavior: a withdraw of everything takes principal and interest: the principal goes to 0, and a later deposit starts again from it', () => {
    const p = principalsOf([entry('deposit', usdc(100), 't1'), entry('withdraw', usdc(100.4), 't2', { positionAfter: '0' }), entry('deposit', usdc(20), 't3')]);
    expect(p.get('base-sepolia/aave-v3/USDC')).toBe(usdc(20));
  });

  test('behavior: without the position read after a withdraw, the withdrawn amount comes off the principal, never below 0', () => {
    expect(applyEntry(usdc(100), { kind: 'withdraw', amount: usdc(30).toString() })).toBe(usdc(70));
    expect(applyEntry(usdc(100), { kind: 'withdraw', amount: usdc(130).toString() })).toBe(0n);
  });

  test('behavior: positions are kept apart (chain, protocol, asset)', () => {
    const p = principalsOf([entry('deposit', usdc(10), 't1'), entry('deposit', usdc(7), 't2', { chain: 'arbitrum-sepolia', protocol: 'compound-v3' })]);
    expect(p.get('base-sepolia/aave-v3/USDC')).toBe(usdc(10));
    expect(p.get('arbitrum-sepolia/compound-v3/USDC')).toBe(usdc(7));
    expect(p.has('arbitrum-sepolia/aave-v3/USDC')).toBe(false);
  });
});

/** An intent snapshot whose plan has `steps`. */
function intentWith(id: string, status: Intent['status'], steps: Step[], finalAmount?: string): Intent {
  return {
    id,
    accountId: 'acct',
    walletId: WALLET.id,
    status,
    action: 'lend',
    amount: '100',
    requestedAmount: '100',
    asset: 'USDC',
    executionPlan: { strategy: 'no-bridge', steps, reasoning: '' },
    ...(finalAmount !== undefined && {
      results: { completedSteps: steps.length, transactions: [], totalGasUsed: '0', totalGasCostUsd: 0, finalAmount, apy: 4 },
    }),
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:01.000Z',
    version: 3,
  };
}

const deposit = (index: number, amount: string, status: Step['status'] = 'completed', completedAt = '2026-01-01T00:00:01.000Z'): Step => ({
  index,
  type: 'deposit',
  status,
  chain: 'base-sepolia',
  protocol: 'aave-v3',
  asset: 'USDC',
  amount,
  ...(status === 'completed' && { completedAt }),
});
const withdraw = (index: number, amount: string, completedAt: string): Step => ({
  index,
  type: 'withdraw',
  status: 'completed',
  chain: 'base-sepolia',
  protocol: 'aave-v3',
  asset: 'USDC',
  amount,
  completedAt,
});
const bridge = (index: number): Step => ({
  index,
  type: 'bridge',
  status: 'completed',
  chain: 'arbitrum-sepolia',
  from: 'arbitrum-sepolia',
  to: 'base-sepolia',
  amount: '100',
  completedAt: '2026-01-01T00:00:00.500Z',
});

/** A chain port double: the wallet's base-sepolia Aave USDC position is whatever `position.amount` is when read. */
function fakeChains(position: { amount: bigint; fail?: boolean }): ChainPort {
  return {
    chains: ['arbitrum-sepolia', 'base-sepolia'],
    holdings: async (): Promise<ChainHoldings[]> => {
      if (position.fail) throw new Error('node down');
      return [
        { chain: 'arbitrum-sepolia', tokens: [], positions: [] },
        {
          chain: 'base-sepolia',
          tokens: [],
          positions:
            position.amount > 0n ? [{ protocol: 'aave-v3', asset: 'USDC', token: '0x00000000000000000000000000000000000000bb', amount: position.amount }] : [],
        },
      ];
    },
    priceUsd: async () => 1,
  } as Partial<ChainPort> as ChainPort;
}

/** Lets the hook's fire-and-forget writes finish. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the ledger hook and the balances it feeds', () => {
  let store: Store;
  beforeEach(async () => {
    store = createMemoryStore();
    await store.wallets.insert(WALLET);
  });

  test('behavior: a completed deposit counts what the intent finally supplied (its bridged amount less the fee the mint kept), not the planned amount', async () => {
    const hook = positionLedgerHook({ store, chains: fakeChains({ amount: 0n }) });
    hook(intentWith('intent_a', 'completed', [bridge(0), deposit(1, '99.99')], '99.9912'));
    await settle();
    const entries = await store.positionLedger.listByWallet(WALLET.id);
    expect(entries).toEqual([expect.objectContaining({ intentId: 'intent_a', stepIndex: 1, kind: 'deposit', amount: '99991200', chain: 'base-sepolia' })]);
  });

  test('behavior: a step told again (a later snapshot, a replay after a restart, another hook) is counted once', async () => {
    const chains = fakeChains({ amount: 0n });
    const snapshot = intentWith('intent_b', 'completed', [deposit(0, '100')], '100');
    const first = positionLedgerHook({ store, chains });
    first(snapshot);
    first(snapshot);
    await settle();
    // a fresh hook (another process) knows nothing of what the first recorded: the store's key keeps one entry
    positionLedgerHook({ store, chains })(snapshot);
    await settle();
    const entries = await store.positionLedger.listByWallet(WALLET.id);
    expect(entries).toHaveLength(1);
    expect(principalsOf(entries).get('base-sepolia/aave-v3/USDC')).toBe(usdc(100));
  });

  test('behavior: steps not yet completed are not counted; the snapshot that completes them is', async () => {
    const hook = positionLedgerHook({ store, chains: fakeChains({ amount: 0n }) });
    hook(intentWith('intent_c', 'executing', [deposit(0, '100', 'executing')]));
    await settle();
    expect(await store.positionLedger.listByWallet(WALLET.id)).toEqual([]);
    hook(intentWith('intent_c', 'completed', [deposit(0, '100')], '100'));
    await settle();
    expect(await store.positionLedger.listByWallet(WALLET.id)).toHaveLength(1);
  });

  test('behavior: a withdraw records the position read after it; a read that fails is tried again with the next snapshot', async () => {
    const position = { amount: usdc(75), fail: true };
    const hook = positionLedgerHook({ store, chains: fakeChains(position) });
    hook(intentWith('intent_d', 'completed', [deposit(0, '100')], '100'));
    const executing = intentWith('intent_e', 'executing', [withdraw(0, '30', '2026-01-02T00:00:00.000Z'), { ...bridge(1), status: 'pending' }]);
    hook(executing);
    await settle();
    expect((await store.positionLedger.listByWallet(WALLET.id)).map((e) => e.kind)).toEqual(['deposit']);
    position.fail = false;
    hook({ ...executing, version: 4 });
    await settle();
    const entries = await store.positionLedger.listByWallet(WALLET.id);
    expect(entries[1]).toMatchObject({ kind: 'withdraw', amount: '30000000', positionAfter: '75000000' });
    expect(principalsOf(entries).get('base-sepolia/aave-v3/USDC')).toBe(usdc(75));
  });

  test("behavior: an intent another instance runs is left to that instance's hook", async () => {
    const hook = positionLedgerHook({ store, chains: fakeChains({ amount: 0n }), runsHere: () => false });
    hook(intentWith('intent_f', 'completed', [deposit(0, '100')], '100'));
    await settle();
    expect(await store.positionLedger.listByWallet(WALLET.id)).toEqual([]);
  });

  test('behavior: balances show principal and earned = balance − principal (token units, exact); a position the ledger never saw shows null', async () => {
    const chains = fakeChains({ amount: usdc(100.342193) });
    positionLedgerHook({ store, chains })(intentWith('intent_g', 'completed', [deposit(0, '100')], '100'));
    await settle();
    const deps = { store, chains, caches: createReadCaches() };
    const report = await getBalances(deps, { account: { id: 'acct' } } as never, WALLET.id);
    expect(report.chains.find((c) => c.chain === 'base-sepolia')?.positions[0]).toMatchObject({ balance: '100342193', principal: '100', earned: '0.342193' });
    expect(await earnedOf(deps, WALLET.id, 'USDC')).toEqual({ principal: '100', earned: '0.342193' });
    expect(await earnedOf(deps, WALLET.id, 'DAI')).toBeNull();

    const outside = createMemoryStore();
    await outside.wallets.insert(WALLET);
    const unseen = await getBalances({ store: outside, chains, caches: createReadCaches() }, { account: { id: 'acct' } } as never, WALLET.id);
    expect(unseen.chains.find((c) => c.chain === 'base-sepolia')?.positions[0]).toMatchObject({ balance: '100342193', principal: null, earned: null });
    expect(await earnedOf({ store: outside, chains, caches: createReadCaches() }, WALLET.id, 'USDC')).toBeNull();
  });

  test('behavior: earned is never negative: a position one unit below its principal (the protocol rounding) earned 0', async () => {
    const chains = fakeChains({ amount: usdc(100) - 1n });
    positionLedgerHook({ store, chains })(intentWith('intent_h', 'completed', [deposit(0, '100')], '100'));
    await settle();
    expect(await earnedOf({ store, chains, caches: createReadCaches() }, WALLET.id, 'USDC')).toEqual({ principal: '100', earned: '0' });
  });
});
