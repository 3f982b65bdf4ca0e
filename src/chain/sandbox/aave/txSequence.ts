import {
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';

/** Gas limits: fixed, so no transaction waits for an estimate against the state its predecessors create. */
export const DEPLOY_GAS = 8_000_000n;
export const CALL_GAS = 1_500_000n;

/**
 * Transactions of one account sent back to back with explicit nonces, none
 * waiting for the previous receipt: the devnet mines them in nonce order, so a
 * contract's address is known (CREATE from sender and nonce) before it exists.
 * `settle` waits for all of them and names the first that reverted.
 */
export interface TxSequence {
  readonly sender: Address;
  /** Transactions sent so far. */
  readonly count: number;
  deploy(label: string, abi: Abi, bytecode: Hex, args?: readonly unknown[]): Promise<Address>;
  call(label: string, to: Address, abi: Abi, functionName: string, args?: readonly unknown[], gas?: bigint): Promise<Hash>;
  settle(): Promise<void>;
}

export async function startTxSequence(
  publicClient: PublicClient<Transport, Chain | undefined>,
  walletClient: WalletClient<Transport, Chain | undefined, Account>,
): Promise<TxSequence> {
  const account = walletClient.account;
  const sender = account.address;
  let nonce = await publicClient.getTransactionCount({ address: sender, blockTag: 'pending' });
  const block = await publicClient.getBlock();
  // Headroom for the base fee to rise while the sequence is mined (at most 12.5 % a block).
  const maxFeePerGas = (block.baseFeePerGas ?? 10n ** 9n) * 3n + 10n ** 9n;
  const maxPriorityFeePerGas = 1n;
  const sent: { label: string; hash: Hash }[] = [];

  const send = async (label: string, to: Address | null, data: Hex, gas: bigint): Promise<Hash> => {
    const request = { account, chain: walletClient.chain, data, gas, nonce, maxFeePerGas, maxPriorityFeePerGas };
    let hash: Hash;
    try {
      hash = await walletClient.sendTransaction(to === null ? request : { ...request, to });
    } catch (err) {
      // An automining Hardhat node answers a reverted transaction with an error carrying the reason.
      throw new Error(`${label} failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, { cause: err });
    }
    nonce += 1;
    sent.push({ label, hash });
    return hash;
  };

  return {
    sender,
    get count() {
      return sent.length;
    },
    async deploy(label, abi, bytecode, args = []) {
      const address = getContractAddress({ from: sender, nonce: BigInt(nonce) });
      await send(label, null, encodeDeployData({ abi, bytecode, args }), DEPLOY_GAS);
      return address;
    },
    call(label, to, abi, functionName, args = [], gas = CALL_GAS) {
      return send(label, to, encodeFunctionData({ abi, functionName, args }), gas);
    },
    async settle() {
      const receipts = await Promise.all(sent.map(({ hash }) => publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })));
      const failed = receipts.findIndex((r) => r.status !== 'success');
      if (failed >= 0) throw new Error(`${sent[failed]!.label} reverted (transaction ${sent[failed]!.hash})`);
    },
  };
}
