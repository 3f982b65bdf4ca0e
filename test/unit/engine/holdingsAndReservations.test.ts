import { ServiceError } from '../../../src/domain/errors/base';
import { readHoldingsWithReservations, type PlanningRead } from '../../../src/engine/holdingsAndReservations';
import type { ChainAmounts } from '../../../src/engine/planner/types';
import type { ChainHoldings } from '../../../src/ports/chain';
import { usdc } from './engineHarness';

/** Holdings of `amount` USDC on base-sepolia. */
const holdingsOf = (amount: string): ChainHoldings[] => [{ chain: 'base-sepolia', tokens: [{ asset: 'USDC', balance: usdc(amount) }], positions: [] }];

/** Every read in order, so a test sees which reservations each holdings read sits between. */
function reads(reservations: ChainAmounts[], balances: string[]) {
  const log: string[] = [];
  let r = 0;
  let h = 0;
  const reservedNow = async (): Promise<ChainAmounts> => {
    log.push('reserved');
    return reservations[Math.min(r++, reservations.length - 1)]!;
  };
  const holdings: PlanningRead<ChainHoldings[]> = async () => {
    log.push('holdings');
    return { ok: true, value: holdingsOf(balances[Math.min(h++, balances.length - 1)]!) };
  };
  const market: PlanningRead<{ holdings: ChainHoldings[]; rates: string }> = async () => {
    log.push('market');
    return { ok: true, value: { holdings: holdingsOf(balances[h++]!), rates: 'read once' } };
  };
  return { log, reservedNow, holdings, market };
}

test('behavior: the reservations are read before the holdings and once after; unchanged, the market is read once', async () => {
  const r = reads([{ 'base-sepolia': usdc('60') }], ['100']);
  const read = await readHoldingsWithReservations(r.reservedNow, r.market, r.holdings);
  expect(r.log).toEqual(['reserved', 'market', 'reserved']);
  expect(read).toEqual({ ok: true, market: { holdings: holdingsOf('100'), rates: 'read once' }, reserved: { 'base-sepolia': usdc('60') } });
});

test('behavior: a reservation released while the holdings were read → the holdings are read again, with the reservations read before them', async () => {
  const r = reads([{ 'base-sepolia': usdc('60') }, {}], ['100', '40']);
  const read = await readHoldingsWithReservations(r.reservedNow, r.market, r.holdings);
  expect(r.log).toEqual(['reserved', 'market', 'reserved', 'holdings', 'reserved']);
  expect(read).toEqual({ ok: true, market: { holdings: holdingsOf('40'), rates: 'read once' }, reserved: {} });
});

test('behavior: reservations still changing after three holdings reads → the larger of the last two is held back, per chain', async () => {
  const r = reads(
    [
      { 'base-sepolia': usdc('60') },
      { 'base-sepolia': usdc('50') },
      { 'base-sepolia': usdc('40') },
      { 'base-sepolia': usdc('30'), 'arbitrum-sepolia': usdc('5') },
    ],
    ['100', '90', '80'],
  );
  const read = await readHoldingsWithReservations(r.reservedNow, r.market, r.holdings);
  expect(r.log).toEqual(['reserved', 'market', 'reserved', 'holdings', 'reserved', 'holdings', 'reserved']);
  expect(read).toMatchObject({ ok: true, market: { holdings: holdingsOf('80') }, reserved: { 'base-sepolia': usdc('40'), 'arbitrum-sepolia': usdc('5') } });
});

test('error: a holdings read that fails again is the answer', async () => {
  const r = reads([{ 'base-sepolia': usdc('60') }, {}], ['100']);
  const error = new ServiceError('NETWORK_ERROR', 'node down');
  const read = await readHoldingsWithReservations(r.reservedNow, r.market, async () => ({ ok: false, error }));
  expect(read).toEqual({ ok: false, error });
});
