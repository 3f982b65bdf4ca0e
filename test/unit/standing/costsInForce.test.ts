import { costsInForceAt } from '../../../src/app/standing/simulateStanding';
import { createSlices } from '../../../src/app/standing/replaySlices';
import { createMemoryRateHistory } from '../../../src/store/memory/memoryRateHistory';

const HOUR = 3_600_000;
const at = Date.parse('2026-11-20T12:00:00.000Z');
const clock = { now: () => new Date(at) };
const costs = (gas: number) => ({ gasUsdPerUnit: { 'base-sepolia': gas }, routeFeeBps: {} });

describe('the costs in force when a backtest starts', () => {
  test('behavior: the last costs recorded before the window, hours before it (read a few hours at a time)', async () => {
    const history = createMemoryRateHistory(clock);
    await history.recordCosts(new Date(at - 20 * HOUR).toISOString(), costs(1));
    await history.recordCosts(new Date(at - 5 * HOUR).toISOString(), costs(2));
    await history.recordCosts(new Date(at).toISOString(), costs(3)); // in the window: not in force before it
    expect(await costsInForceAt(history, at, createSlices(Infinity))).toEqual(costs(2));
  });

  test('behavior: costs recorded more than a day before the window are not in force; none recorded: undefined', async () => {
    const history = createMemoryRateHistory(clock);
    expect(await costsInForceAt(history, at, createSlices(Infinity))).toBeUndefined();
    await history.recordCosts(new Date(at - 25 * HOUR).toISOString(), costs(1));
    expect(await costsInForceAt(history, at, createSlices(Infinity))).toBeUndefined();
  });
});
