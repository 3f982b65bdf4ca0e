import { LRUCache } from 'lru-cache';
import { yieldsAnswerCache } from '../../../src/app/yields/yieldsAnswerCache';
import type { MarketRate } from '../../../src/ports/chain';
import type { AppDeps } from '../../../src/app/deps';
import type { Principal } from '../../../src/app/accounts/principal';

const principal = {} as Principal;
const snapshot = (apy: number): MarketRate[] => [{ chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', apy } as MarketRate];

function setup(ttl = 10_000) {
  const rates = new LRUCache<'all', MarketRate[]>({ max: 1, ttl, allowStale: true });
  const deps = { caches: { rates } } as unknown as Pick<AppDeps, 'caches'>;
  // the report read: the rates in the cache as the read sees them
  const read = jest.fn(async () => ({ apy: rates.peek('all')?.[0]?.apy }));
  return { rates, read, answer: yieldsAnswerCache(deps, read) };
}

test("behavior: a fresh snapshot's answer is serialized once and then given at once (a string, no promise); a new snapshot is read again", async () => {
  const { rates, read, answer } = setup();
  rates.set('all', snapshot(1));
  expect(await answer(principal)).toBe('{"apy":1}');
  expect(answer(principal)).toBe('{"apy":1}');
  expect(read).toHaveBeenCalledTimes(1);
  rates.set('all', snapshot(2));
  expect(await answer(principal)).toBe('{"apy":2}');
  expect(answer(principal)).toBe('{"apy":2}');
  expect(read).toHaveBeenCalledTimes(2);
});

test('behavior: with no snapshot, a stale one, or one replaced while the read ran, the read answers and nothing is kept for it', async () => {
  const { rates, read, answer } = setup(20);
  expect(await answer(principal)).toBe('{}');
  rates.set('all', snapshot(1));
  read.mockImplementationOnce(async () => {
    rates.set('all', snapshot(3));
    return { apy: 1 };
  });
  expect(await answer(principal)).toBe('{"apy":1}');
  expect(await answer(principal)).toBe('{"apy":3}');
  expect(answer(principal)).toBe('{"apy":3}');
  await new Promise((r) => setTimeout(r, 40));
  // stale: the read runs (it is what starts the cache's refresh)
  const calls = read.mock.calls.length;
  expect(await answer(principal)).toBe('{"apy":3}');
  expect(read).toHaveBeenCalledTimes(calls + 1);
});
