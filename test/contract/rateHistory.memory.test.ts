import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { createMemoryRateHistory } from '../../src/store/memory/memoryRateHistory';
import { RATE_HISTORY_RETENTION_MS } from '../../src/domain/rateHistory';
import { describeRateHistoryContract } from './rateHistory.contract';

describeRateHistoryContract('memory', async () => createMemoryStore());

describe('memory rate history: retention follows its clock', () => {
  test('behavior: a sample and its costs listed today are gone once the clock passes 90 days after them (dropped, not only hidden)', async () => {
    let now = Date.UTC(2026, 0, 1);
    const history = createMemoryRateHistory({ now: () => new Date(now) });
    const at = new Date(now).toISOString();
    const window = { from: '2025-12-01T00:00:00.000Z', to: '2026-06-01T00:00:00.000Z' };
    await history.record([{ chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', at, apy: 4.29 }]);
    await history.recordCosts(at, { gasUsdPerUnit: { 'base-sepolia': 1e-9 }, routeFeeBps: {} });
    now += RATE_HISTORY_RETENTION_MS - 1;
    expect((await history.list(window)).map((s) => s.at)).toEqual([at]);
    expect((await history.listCosts(window.from, window.to)).map((c) => c.at)).toEqual([at]);
    now += 1;
    expect(await history.list(window)).toEqual([]);
    expect(await history.listCosts(window.from, window.to)).toEqual([]);
    // moving the clock back shows they were dropped, not filtered
    now -= 10 * 60_000;
    expect(await history.list(window)).toEqual([]);
    expect(await history.listCosts(window.from, window.to)).toEqual([]);
  });
});
