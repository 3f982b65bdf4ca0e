/**
 * Round-trip baseline for bench/intentRoundTrips.ts: sends a transaction
 * directly with viem, from an account the bench owns, on the running sandbox
 * devnets, the way the service's chain port does (src/chain/viem/send.ts and nonceSender.ts):
 * prepare (pending nonce, EIP-1559 fees and gas × 1.2, read in parallel), sign
 * locally, eth_sendRawTransaction, then waitForTransactionReceipt on a public
 * client built by the service's own createChainClients (same batching, same
 * polling interval). Preparation and the round trip (sign → send → receipt)
 * are timed separately.
 */
import { keccak256, toHex, type Address, type Hex, type LocalAccount } from 'viem';
import type { ChainName } from '../../src/domain/chains';
import type { TxRequest } from '../../src/ports/chain';
import type { SandboxManifest } from '../../src/ports/deploymentManifest';
import { createChainClients, type ChainClient } from '../../src/chain/viem/chainClients';
import { encodeTx } from '../../src/chain/viem/encodeTx';

export interface TimedTx {
  kind: string;
  chain: ChainName;
  txHash: Hex;
  /** nonce + fees + gas estimate (in parallel, as the service does), ms. */
  prepMs: number;
  /** sign + eth_sendRawTransaction + receipt, ms. */
  roundTripMs: number;
}

export interface Replayer {
  clients: Map<ChainName, ChainClient>;
  client(chain: ChainName): ChainClient;
  /** Gives `address` native balance without a transaction (hardhat_setBalance). */
  setBalance(chain: ChainName, address: Address, wei: bigint): Promise<void>;
  /** Sends `tx` (encoded against the deployment like the service) and waits for its successful receipt. */
  send(account: LocalAccount, tx: TxRequest): Promise<TimedTx>;
  /** A plain native transfer (what a gas top-up is), timed the same way. */
  transfer(account: LocalAccount, chain: ChainName, to: Address, wei: bigint): Promise<TimedTx>;
}

export function createReplayer(manifest: SandboxManifest, pollingIntervalMs: number): Replayer {
  const deployments = Object.values(manifest.chains).filter((d) => d !== undefined);
  const clients = createChainClients(deployments, pollingIntervalMs);
  const client = (chain: ChainName): ChainClient => {
    const c = clients.get(chain);
    if (!c) throw new Error(`no devnet for ${chain}`);
    return c;
  };

  async function timed(
    account: LocalAccount,
    chain: ChainName,
    kind: string,
    call: { to: Address; data?: Hex; value?: bigint },
    fixedGas?: bigint,
  ): Promise<TimedTx> {
    const c = client(chain);
    const p0 = performance.now();
    const [nonce, fees, gas] = await Promise.all([
      c.client.getTransactionCount({ address: account.address, blockTag: 'pending' }),
      c.client.estimateFeesPerGas(),
      fixedGas !== undefined ? Promise.resolve(fixedGas) : c.client.estimateGas({ account: account.address, ...call }).then((g) => (g * 12n) / 10n),
    ]);
    const t0 = performance.now();
    const raw = await account.signTransaction({
      chainId: c.chain.id,
      type: 'eip1559',
      ...call,
      nonce,
      gas,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    await c.client.sendRawTransaction({ serializedTransaction: raw });
    const receipt = await c.client.waitForTransactionReceipt({ hash: keccak256(raw), timeout: 60_000 });
    const t1 = performance.now();
    if (receipt.status !== 'success') throw new Error(`replayed ${kind} on ${chain} reverted (${receipt.transactionHash})`);
    return { kind, chain, txHash: receipt.transactionHash, prepMs: t0 - p0, roundTripMs: t1 - t0 };
  }

  return {
    clients,
    client,
    async setBalance(chain, address, wei) {
      await client(chain).client.request({ method: 'hardhat_setBalance' as never, params: [address, toHex(wei)] as never });
    },
    send(account, tx) {
      const { to, data } = encodeTx(client(tx.chain), tx, account.address);
      return timed(account, tx.chain, tx.kind, { to, data });
    },
    transfer(account, chain, to, wei) {
      // the service's gas top-up: 21,000 gas, fees estimated, no gas estimate
      return timed(account, chain, 'gas top-up (plain transfer)', { to, value: wei }, 21_000n);
    },
  };
}
