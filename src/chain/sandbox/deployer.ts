import {
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  type Abi,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type HttpTransport,
  type PrivateKeyAccount,
  type PublicClient,
  type TransactionReceipt,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainName } from '../../domain/chains';
import { viemChainFor } from './viemChains';
import { withDeployGas } from './deployGas';

type Public = PublicClient<HttpTransport, Chain>;
type Wallet = WalletClient<HttpTransport, Chain, PrivateKeyAccount>;

/**
 * One account deploying to one devnet: sends, waits for each receipt, fails
 * on a revert, and counts what it sent (the deployment reports its cost in
 * transactions). Devnet-only helpers (hardhat_setCode / setStorageAt) too.
 */
export interface Deployer {
  chain: ChainName;
  public: Public;
  wallet: Wallet;
  account: Address;
  /** Transactions confirmed so far. */
  readonly transactions: number;
  /** Waits for the transaction and throws unless it succeeded. */
  confirm(pending: Promise<Hash>): Promise<TransactionReceipt>;
  /** Deploys `bytecode` (constructor arguments encoded from `abi`) and returns the new contract's address. */
  deploy(params: { abi: Abi; bytecode: Hex; args?: readonly unknown[] }): Promise<Address>;
  /** Devnet-only: replaces the code at `address`. */
  setCode(address: Address, code: Hex): Promise<void>;
  /** Devnet-only: writes one 32-byte storage slot. */
  setStorageAt(address: Address, slot: Hex, value: Hex): Promise<void>;
}

/** A Deployer for `key` on the devnet of `chain` at `rpcUrl`. */
export function createDeployer(chain: ChainName, rpcUrl: string, key: Hex): Deployer {
  const viemChain = viemChainFor(chain, rpcUrl);
  const transport = http(rpcUrl);
  const account = privateKeyToAccount(key);
  const pub = createPublicClient({ chain: viemChain, transport, pollingInterval: 20 });
  const wallet = withDeployGas(createWalletClient({ account, chain: viemChain, transport, pollingInterval: 20 }));
  let transactions = 0;
  const request = pub.request as (a: { method: string; params: unknown[] }) => Promise<unknown>;

  const confirm = async (pending: Promise<Hash>): Promise<TransactionReceipt> => {
    const hash = await pending;
    transactions += 1;
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`${chain}: transaction ${hash} reverted`);
    return receipt;
  };

  return {
    chain,
    public: pub,
    wallet,
    account: account.address,
    get transactions() {
      return transactions;
    },
    confirm,
    async deploy({ abi, bytecode, args }) {
      const receipt = await confirm(wallet.deployContract({ abi, bytecode, args: args as unknown[] }));
      if (!receipt.contractAddress) throw new Error(`${chain}: deployment ${receipt.transactionHash} created no contract`);
      return getAddress(receipt.contractAddress);
    },
    async setCode(address, code) {
      await request({ method: 'hardhat_setCode', params: [address, code] });
    },
    async setStorageAt(address, slot, value) {
      await request({ method: 'hardhat_setStorageAt', params: [address, slot, value] });
    },
  };
}
