import { findMarket } from '../../ports/deploymentManifest';
import { createWalletClient, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainName, TokenAsset } from '../../domain/chains';
import { invalidChain, unsupportedAsset } from '../../domain/errors/chain';
import { sandboxTokenAbi } from '../sandbox/abis';
import { withDeployGas } from '../sandbox/deployGas';
import type { ChainClient } from './chainClients';
import type { FaultRegistry } from '../../domain/sandboxFaults';
import type { SandboxControls } from '../../ports/sandboxControls';
import { DEVNET_STALL_PATH } from '../sandbox/devnetPreload';

/** Controls over the sandbox contracts; the deployer owns pools and feeds, the faucet may mint. */
export function createSandboxControls(o: {
  client(chain: ChainName): ChainClient;
  deployerKey: Hex;
  faucetKey: Hex;
  faults: FaultRegistry;
  /** The devnets' usual mining: one block per transaction (0) or one every `blockTimeMs`. */
  blockTimeMs?: number;
  /** Per chain, instead of `blockTimeMs` (SANDBOX_TIMING=testnets). */
  blockTimesMs?: Partial<Record<ChainName, number>>;
}): SandboxControls {
  const stalls = new Map<ChainName, NodeJS.Timeout>();
  const rpc = (c: ChainClient, method: string, params: unknown[]) => c.client.request({ method: method as never, params: params as never });
  const blockTimeOf = (chain: ChainName): number => o.blockTimesMs?.[chain] ?? o.blockTimeMs ?? 0;
  async function resume(c: ChainClient): Promise<void> {
    const blockTimeMs = blockTimeOf(c.name);
    await rpc(c, 'evm_setIntervalMining', [blockTimeMs]);
    await rpc(c, 'evm_setAutomine', [blockTimeMs === 0]);
    if (blockTimeMs === 0) await rpc(c, 'evm_mine', []);
  }
  // The devnet node holds these sandbox accounts and assigns their nonces (eth_sendTransaction):
  // signing locally raced on the nonce when admin calls ran concurrently, here or in another
  // service attached to the same devnets (parallel mints answered 500).
  const deployer = privateKeyToAccount(o.deployerKey).address;
  const faucet = privateKeyToAccount(o.faucetKey).address;
  const wallet = (chain: ChainName, key: 'deployer' | 'faucet') => {
    const c = o.client(chain);
    return {
      c,
      w: withDeployGas(
        createWalletClient({ chain: c.chain, account: key === 'deployer' ? deployer : faucet, transport: http(c.deployment.rpcUrl, { retryCount: 0 }) }),
      ),
    };
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
      const market = findMarket(c.deployment, protocol, asset);
      if (!market) throw invalidChain(chain, { reason: `no ${protocol} ${asset} market on ${chain}` });
      return { txHash: await c.protocols.get(protocol).sandbox.setRate({ reader: c, wallet: w, market, apy }) };
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
    async stall(chain, seconds) {
      const c = o.client(chain);
      clearTimeout(stalls.get(chain));
      stalls.delete(chain);
      // A devnet of startDevnets ends the stall itself (a timer in the node process), whatever becomes of this service.
      const devnetSide = await stallOnDevnet(c.deployment.rpcUrl, seconds, blockTimeOf(chain));
      if (devnetSide !== null) return devnetSide;
      // Another node (no stall route): this service holds the timer, as the only way left.
      await rpc(c, 'evm_setAutomine', [false]);
      await rpc(c, 'evm_setIntervalMining', [0]);
      const timer = setTimeout(() => {
        stalls.delete(chain);
        // devnets stopped meanwhile: nothing to resume
        resume(c).catch(() => undefined);
      }, seconds * 1_000);
      timer.unref();
      stalls.set(chain, timer);
      return { resumesAt: new Date(Date.now() + seconds * 1_000).toISOString() };
    },
    async increaseTime(chain, seconds) {
      const c = o.client(chain);
      await c.client.request({ method: 'evm_increaseTime' as never, params: [seconds] as never });
      await c.client.request({ method: 'evm_mine' as never, params: [] as never });
    },
  };
}

/** Asks the devnet to stall and resume on its own (DEVNET_STALL_PATH); null when the node does not serve that route. */
async function stallOnDevnet(rpcUrl: string, seconds: number, blockTimeMs: number): Promise<{ resumesAt: string } | null> {
  try {
    const res = await fetch(new URL(DEVNET_STALL_PATH, rpcUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds, blockTimeMs }),
      signal: AbortSignal.timeout(5_000),
    });
    const body = (await res.json().catch(() => null)) as { resumesAt?: unknown } | null;
    // a node without the route answers its own way (Hardhat: a JSON-RPC error)
    return res.ok && typeof body?.resumesAt === 'string' ? { resumesAt: body.resumesAt } : null;
  } catch {
    return null;
  }
}
