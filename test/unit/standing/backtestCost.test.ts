import { backtestCredits, marketsToPrice, windowDays, MARKET_DAYS_PER_CREDIT } from '../../../src/app/standing/backtestCost';
import { CREDIT_COST } from '../../../src/domain/plans';
import { createMemoryRateHistory } from '../../../src/store/memory/memoryRateHistory';

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);

describe('backtestCredits', () => {
  test('behavior: the base price covers a small window; beyond it one credit per MARKET_DAYS_PER_CREDIT market-days, rounded up', () => {
    expect(CREDIT_COST.simulateStandingIntent).toBe(5);
    expect(MARKET_DAYS_PER_CREDIT).toBe(10);
    expect(backtestCredits(1, 1)).toBe(5);
    expect(backtestCredits(12, 4)).toBe(5);
    expect(backtestCredits(13, 4)).toBe(6);
    expect(backtestCredits(30, 4)).toBe(12);
    expect(backtestCredits(90, 4)).toBe(36);
    expect(backtestCredits(90, 1)).toBe(9);
    // twice the work, twice the price (beyond the base)
    expect(backtestCredits(60, 4)).toBe(2 * backtestCredits(30, 4));
  });

  test('behavior: a started day counts whole', () => {
    expect(windowDays(START, START + DAY)).toBe(1);
    expect(windowDays(START, START + DAY + 60_000)).toBe(2);
    expect(windowDays(START, START + 90 * DAY)).toBe(90);
  });

  test("behavior: the markets priced are those recorded in the window's first or last hour, on the chains the asker may use; at least 1", async () => {
    const history = createMemoryRateHistory({ now: () => new Date(START + 10 * DAY) });
    const at = (ms: number) => new Date(ms).toISOString();
    await history.record([
      { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', at: at(START), apy: 4 },
      { chain: 'arbitrum-sepolia', protocol: 'aave-v3', asset: 'USDC', at: at(START + 5 * DAY), apy: 4 },
      { chain: 'ethereum', protocol: 'aave-v3', asset: 'USDC', at: at(START + 10 * DAY - 60_000), apy: 4 },
      { chain: 'ethereum-sepolia', protocol: 'compound-v3', asset: 'USDC', at: at(START + 10 * DAY - 60_000), apy: 4 },
      { chain: 'ethereum-sepolia', protocol: 'compound-v3', asset: 'WETH', at: at(START), apy: 4 },
    ]);
    const window = { asset: 'USDC' as const, fromMs: START, toMs: START + 10 * DAY };
    expect(await marketsToPrice(history, window, () => true)).toBe(3);
    expect(await marketsToPrice(history, window, (c) => c !== 'ethereum')).toBe(2);
    expect(await marketsToPrice(history, { asset: 'DAI', fromMs: START, toMs: START + DAY }, () => true)).toBe(1);
  });
});
