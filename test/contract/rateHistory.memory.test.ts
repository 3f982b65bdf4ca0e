import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { createMemoryRateHistory } from '../../src/store/memory/memoryRateHistory';
import { RATE_HISTORY_RETENTION_MS } from '../../src/domain/rateHistory';
import { describeRateHistoryContract } from './rateHistory.contract';

describeRateHistoryContract('memory', async () => createMemoryStore());

describe('memory rate history: retention follows its clock', () => {
  test('behavior: a sample listed today is gone once the clock passes 30 days after it (dropped, not only hidden)', async () => {
    let now = Date.UTC(2026, 0, 1);
    const history = createMemoryRateHistory({ now: () => new Date(now) });
    const at = new Date(now).toISOString();
    const window = { from: '2025-12-01T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z' };
    await history.record([{ chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', at, apy: 4.29 }]);
    now += RATE_HISTORY_RETENTION_MS - 1;
    expect((await history.list(window)).map((s) => s.at)).toEqual([at]);
    now += 1;
    expect(await history.list(window)).toEqual([]);
    // moving the clock back shows it was dropped, not filtered
    now -= 10 * 60_000;
    expect(await history.list(window)).toEqual([]);
  });
});
