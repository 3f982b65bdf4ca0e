import { startChains } from '../../src/chain/startChains';
import { describeChainPortContract } from './chainPort.contract';

/** The chain port contract on the viem adapter, attached to the sandbox devnets the global setup started. */
describeChainPortContract('viem adapter on the sandbox devnets', async () => {
  // one chain on the 7702 path, so accountModel() has both answers to give
  const accountModels = { 'base-sepolia': '7702' } as const;
  const chains = await startChains({
    chainMode: 'sandbox',
    sandboxManifestPath: process.env.SANDBOX_MANIFEST,
    sandboxBlockTimeMs: 0,
    rpcUrls: {},
    sandboxAccountModels: { default: 'plain', chains: accountModels },
  });
  const controls = chains.controls!;
  return {
    port: chains.port,
    async fund(chain, address, asset, amount) {
      await controls.mint({ chain, asset, address, amount });
    },
    // the sandbox's deposit-revert fault: this port's next supply on the chain is sabotaged and mined
    revertNextSupply: (chain) => controls.registerFault({ chain, kind: 'deposit-revert', count: 1 }),
    accountModels,
    close: () => chains.stop(),
  };
});
