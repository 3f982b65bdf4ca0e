import type { MarketRate } from '../../../src/ports/chain';
import { InstantChain } from '../../../bench/support/instantChain';
import { describeChainPortContract } from '../../contract/chainPort.contract';
import { FakeChain } from '../engine/fakeChain';
import { doubleToken } from '../../helpers/chainDoubles';

/**
 * The chain port contract (test/contract/chainPort.contract.ts) on the two
 * in-process doubles: the engine tests' FakeChain and the benchmarks'
 * InstantChain. The viem adapter runs the same suite on the devnets.
 */

/** A market layout like the sandbox's: USDC on every chain, a sandbox-only one among them. */
const markets = (): MarketRate[] => [
  { chain: 'arbitrum-sepolia', protocol: 'aave-v3', asset: 'USDC', token: doubleToken('USDC'), apy: 3.1 },
  { chain: 'ethereum-sepolia', protocol: 'compound-v3', asset: 'USDC', token: doubleToken('USDC'), apy: 2.5 },
  { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: doubleToken('USDC'), apy: 4.2, sandboxOnly: true },
];

describeChainPortContract('FakeChain', async () => {
  const chain = new FakeChain({ rates: markets(), feeBps: 5 });
  return {
    port: chain,
    fund: async (c, address, asset, amount) => chain.fund(c, address, asset, amount),
    revertNextSupply: (c) => chain.revertNext('supply', { chain: c }),
    close: () => chain.close(),
  };
});

describeChainPortContract('InstantChain', async () => {
  const chain = new InstantChain(markets(), 5);
  return {
    port: chain,
    fund: async (c, address, asset, amount) => chain.fund(c, address, asset, amount),
    close: () => chain.close(),
  };
});
