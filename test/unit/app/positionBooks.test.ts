import { booksOf, figuresOf, lifetimeInterest } from '../../../src/app/balances/principal';
import type { PositionLedgerEntry } from '../../../src/ports/store';

/** 6-decimal USDC in smallest units. */
const usdc = (n: number): bigint => BigInt(Math.round(n * 1_000_000));
/** A supply index in ray: 1.05 → 1.05e27. */
const ray = (n: number): bigint => (BigInt(Math.round(n * 1e9)) * 10n ** 27n) / 10n ** 9n;

const ARB = 'arbitrum-sepolia/aave-v3/USDC';
const ETH = 'ethereum-sepolia/aave-v3/USDC';

function entry(kind: 'deposit' | 'withdraw', amount: bigint, at: string, over: Partial<PositionLedgerEntry> = {}): PositionLedgerEntry {
  return {
    intentId: `intent_${at}`,
    stepIndex: 0,
    walletId: 'svc_wallet_books',
    chain: 'arbitrum-sepolia',
    protocol: 'aave-v3',
    asset: 'USDC',
    kind,
    amount: amount.toString(),
    at,
    ...over,
  };
}

describe('position books: the service’s supplies grown by the index', () => {
  test('behavior: 100 supplied at index 1, read at 1.05 → earned 5; 1000 more on the position (someone else’s supply) is external, not interest', () => {
    const book = booksOf([entry('deposit', usdc(100), 't1', { index: ray(1).toString() })]).get(ARB)!;
    expect(figuresOf(book, { amount: usdc(105), index: ray(1.05) })).toEqual({ principal: usdc(100), earned: usdc(5), external: 0n });
    expect(figuresOf(book, { amount: usdc(1105), index: ray(1.05) })).toEqual({ principal: usdc(100), earned: usdc(5), external: usdc(1000) });
  });

  test('behavior: a rebalance moving 105 (100 principal + 5 interest) with a 0.05 fee → the new position’s principal is 99.95, its earned 5; the interest counts once', () => {
    const books = booksOf([
      entry('deposit', usdc(100), 't1', { index: ray(1).toString() }),
      entry('withdraw', usdc(105), 't2', { intentId: 'intent_move', index: ray(1.05).toString(), positionAfter: '0' }),
      entry('deposit', usdc(104.95), 't3', { intentId: 'intent_move', stepIndex: 2, chain: 'ethereum-sepolia', index: ray(2).toString() }),
    ]);
    const source = books.get(ARB)!;
    const target = books.get(ETH)!;
    const sourceNow = figuresOf(source, { amount: 0n, index: ray(1.06) });
    const targetNow = figuresOf(target, { amount: usdc(104.95), index: ray(2) });
    expect(targetNow).toEqual({ principal: usdc(99.95), earned: usdc(5), external: 0n });
    expect(lifetimeInterest(source, sourceNow) + lifetimeInterest(target, targetNow)).toBe(usdc(5));
  });

  test('behavior: a withdraw takes the interest first, from the service’s share only', () => {
    const book = booksOf([
      entry('deposit', usdc(100), 't1', { index: ray(1).toString() }),
      entry('withdraw', usdc(30), 't2', { index: ray(1.05).toString(), positionAfter: usdc(1075).toString() }),
    ]).get(ARB)!;
    // 105 own (plus 1000 external) − 30 → 75 own: all principal; 5 of the 30 was interest
    expect(book.principal).toBe(usdc(75));
    expect(book.interestOut).toBe(usdc(5));
    expect(figuresOf(book, { amount: usdc(1075), index: ray(1.05) })).toEqual({ principal: usdc(75), earned: 0n, external: usdc(1000) });
  });

  test('behavior: entries recorded without an index keep the old rule: earned = balance − principal, never below 0, no external', () => {
    const book = booksOf([entry('deposit', usdc(100), 't1')]).get(ARB)!;
    expect(figuresOf(book, { amount: usdc(1105), index: ray(1.05) })).toEqual({ principal: usdc(100), earned: usdc(1005) });
    expect(figuresOf(book, { amount: usdc(99), index: ray(1.05) })).toEqual({ principal: usdc(100), earned: 0n });
  });
});
