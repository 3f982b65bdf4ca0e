import { createWalletClient, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainName, TokenAsset } from '../../domain/chains';
import { invalidChain, unsupportedAsset } from '../../domain/errors/chain';
import { sandboxCometAbi, sandboxPoolAbi, sandboxTokenAbi } from '../sandbox/abis';
import { apyPercentToAaveRay, apyPercentToCometRate } from '../apy';
import type { Protocol } from '../port';
import type { ChainClient } from './chainClients';
import type { FaultKind, FaultRegistry } from '../faults';

/** Sandbox-only controls behind /admin/sandbox: rates, minting, faults, time. */
export interface SandboxControls {
  setRate(p: { chain: ChainName; protocol: Protocol; asset: TokenAsset; apy: number }): Promise<{ txHash: Hex }>;
  mint(p: { chain: ChainName; asset: TokenAsset; address: Address; amount: bigint }): Promise<{ txHash: Hex }>;
  registerFault(p: { chain: ChainName; kind: FaultKind; count: number }): void;
  /** The pending faults; the store consults it for `store-error`. */
  readonly faults: FaultRegistry;
  /** Moves the devnet clock forward and mines a block (interest accrues). */
  increaseTime(chain: ChainName, seconds: number): Promise<void>;
}

/** Controls over the sandbox contracts; the deployer owns pools and feeds, the faucet may mint. */
export function createSandboxControls(o: {
  client(chain: ChainName): ChainClient;
  deployerKey: Hex;
  faucetKey: Hex;
  faults: FaultRegistry;
}): SandboxControls {
  // The devnet node holds these sandbox accounts and assigns their nonces (eth_sendTransaction):
  // signing locally raced on the nonce when admin calls ran concurrently, here or in another
  // service attached to the same devnets (parallel mints answered 500).
  const deployer = privateKeyToAccount(o.deployerKey).address;
  const faucet = privateKeyToAccount(o.faucetKey).address;
  const wallet = (chain: ChainName, key: 'deployer' | 'faucet') => {
    const c = o.client(chain);
    return { c, w: createWalletClient({ chain: c.chain, account: key === 'deployer' ? deployer : faucet, transport: http(c.deployment.rpcUrl, { retryCount: 0 }) }) };
  };
  const tokenOf = (c: ChainClient, asset: TokenAsset): Address => {
    const t = c.deployment.tokens[asset];
    if (!t) throw unsupportedAsset(asset, c.name);
    return t;
  };
  const mined = async (c: ChainClient, hash: Hex) => {
    await c.client.waitForTransactionReceipt({ hash });
    return { txHash: hash };
  };

  return {
    async setRate({ chain, protocol, asset, apy }) {
      const { c, w } = wallet(chain, 'deployer');
      if (protocol === 'compound-v3') {
        if (!c.deployment.comet || asset !== 'USDC') throw invalidChain(chain, { reason: `no compound-v3 ${asset} market` });
        return mined(c, await w.writeContract({ address: c.deployment.comet, abi: sandboxCometAbi, functionName: 'setSupplyRate', args: [apyPercentToCometRate(apy)] }));
      }
      const hash = await w.writeContract({ address: c.deployment.aavePool, abi: sandboxPoolAbi, functionName: 'setLiquidityRate', args: [tokenOf(c, asset), apyPercentToAaveRay(apy)] });
      return mined(c, hash);
    },
    async mint({ chain, asset, address, amount }) {
      const { c, w } = wallet(chain, 'faucet');
      return mined(c, await w.writeContract({ address: tokenOf(c, asset), abi: sandboxTokenAbi, functionName: 'mint', args: [address, amount] }));
    },
    faults: o.faults,
    registerFault({ chain, kind, count }) {
      o.client(chain);
      o.faults.register(chain, kind, count);
    },
    async increaseTime(chain, seconds) {
      const c = o.client(chain);
      await c.client.request({ method: 'evm_increaseTime' as never, params: [seconds] as never });
      await c.client.request({ method: 'evm_mine' as never, params: [] as never });
    },
  };
}
