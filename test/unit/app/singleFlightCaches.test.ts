import { createReadCaches } from '../../../src/app/caches';
import { currentRates } from '../../../src/app/yields/getYields';
import { walletHoldings } from '../../../src/app/balances/getBalances';
import type { ChainPort, MarketRate } from '../../../src/ports/chain';
import type { Wallet } from '../../../src/domain/types';

const RATE: MarketRate = { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', apy: 4.2 } as MarketRate;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A chain port whose reads are counted and answer after `ms`. */
function countingChains(ms = 20) {
  const calls = { rates: 0, holdings: 0 };
  const chains = {
    chains: ['base-sepolia'],
    async rates() {
      calls.rates++;
      await sleep(ms);
      return [{ ...RATE, apy: 4 + calls.rates / 100 }];
    },
    async holdings() {
      calls.holdings++;
      await sleep(ms);
      return [{ chain: 'base-sepolia', tokens: [], positions: [] }];
    },
  } as unknown as ChainPort;
  return { chains, calls };
}

const wallet = { id: 'svc_wallet_1', evmAddress: '0x' + '11'.repeat(20), chains: ['base-sepolia'] } as Wallet;

test('behavior: 50 callers on a cold yields cache cause one chain read, and all get its answer', async () => {
  const { chains, calls } = countingChains();
  const caches = createReadCaches();
  const answers = await Promise.all(Array.from({ length: 50 }, () => currentRates({ chains, caches })));
  expect(calls.rates).toBe(1);
  expect(new Set(answers.map((a) => a[0]!.apy))).toEqual(new Set([4.01]));
});

test('behavior: an expired entry is answered at once (stale) while one refresh runs; the next read sees the refreshed value', async () => {
  const { chains, calls } = countingChains(50);
  const caches = createReadCaches();
  await currentRates({ chains, caches });
  caches.rates.set('all', caches.rates.get('all')!, { ttl: 1 });
  await sleep(5);
  const stale = await Promise.all(Array.from({ length: 20 }, () => currentRates({ chains, caches })));
  // Everyone got the old value, so nobody waited for the refresh (it answers 4.02), and one refresh is running.
  expect(stale.every((a) => a[0]!.apy === 4.01)).toBe(true);
  expect(calls.rates).toBe(2);
  await sleep(80);
  expect(calls.rates).toBe(2);
  expect((await currentRates({ chains, caches }))[0]!.apy).toBe(4.02);
});

test('behavior: balances are single-flight per wallet, and an invalidation mid-read keeps the older answer out of the cache: the caller gets a read made after it', async () => {
  const { chains, calls } = countingChains(30);
  const caches = createReadCaches();
  await Promise.all(Array.from({ length: 30 }, () => walletHoldings({ chains, caches }, wallet)));
  expect(calls.holdings).toBe(1);
  caches.holdings.delete(wallet.id);
  const reading = walletHoldings({ chains, caches }, wallet);
  caches.holdings.delete(wallet.id); // the service transacted for the wallet while the read was in flight
  // The cancelled read (lru-cache rejects it with Error('deleted')) is made again, not answered as an error (it was INTERNAL_ERROR).
  await expect(reading).resolves.toEqual([{ chain: 'base-sepolia', tokens: [], positions: [] }]);
  expect(calls.holdings).toBe(3);
});

test('error: a failed chain read reaches its callers as the chain error (not a generic one)', async () => {
  const caches = createReadCaches();
  const chains = { chains: [], rates: async () => Promise.reject(new Error('rpc down')) } as unknown as ChainPort;
  await expect(currentRates({ chains, caches })).rejects.toThrow('rpc down');
});
