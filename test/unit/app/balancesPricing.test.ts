import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { createReadCaches } from '../../../src/app/caches';
import { getBalances } from '../../../src/app/balances/getBalances';
import type { ChainPort, ChainHoldings } from '../../../src/ports/chain';
import type { ChainName } from '../../../src/domain/chains';
import type { Wallet } from '../../../src/domain/types';

/** A chain port double answering holdings and a different ETH price per chain's feed. */
function pricedChains(holdings: ChainHoldings[], ethUsd: Partial<Record<ChainName, number>>): ChainPort {
  return {
    chains: ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'],
    holdings: async () => holdings,
    priceUsd: async (asset, chain) => (asset === 'USDC' ? 1 : (ethUsd[chain] ?? NaN)),
  } as Partial<ChainPort> as ChainPort;
}

test("behavior: a WETH position on base-sepolia is valued with base-sepolia's feed, not the first deployment's", async () => {
  const store = createMemoryStore();
  const wallet: Wallet = {
    id: 'svc_wallet_p',
    accountId: 'acct',
    userId: 'u',
    address: '0x00000000000000000000000000000000000000aa',
    evmAddress: '0x00000000000000000000000000000000000000aa',
    chainType: 'ethereum',
    chains: ['ethereum-sepolia', 'base-sepolia'],
    createdAt: new Date().toISOString(),
  } as Wallet;
  await store.wallets.insert(wallet);
  const holdings: ChainHoldings[] = [
    { chain: 'ethereum-sepolia', tokens: [{ asset: 'WETH', balance: 10n ** 18n }], positions: [] },
    { chain: 'base-sepolia', tokens: [], positions: [{ protocol: 'aave-v3', asset: 'WETH', amount: 2n * 10n ** 18n }] },
  ] as ChainHoldings[];
  const chains = pricedChains(holdings, { 'ethereum-sepolia': 3000, 'base-sepolia': 3100 });
  const report = await getBalances({ store, chains, caches: createReadCaches() }, { account: { id: 'acct' } } as never, wallet.id);
  expect(report.chains.find((c) => c.chain === 'ethereum-sepolia')?.tokens[0]?.valueUsd).toBe(3000);
  expect(report.chains.find((c) => c.chain === 'base-sepolia')?.positions[0]?.valueUsd).toBe(6200);
  expect(report.totalValueUsd).toBe(9200);
});
