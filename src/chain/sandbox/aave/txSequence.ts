import {
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  keccak256,
  stringToHex,
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

/** Deploy through a CREATE2 factory (SandboxCreate2Factory's `deploy(salt, initCode)`): addresses from the salt, not the nonce. */
export interface Create2Options {
  factory: Address;
  /** Prefix of every salt; the contract's label completes it. */
  saltPrefix: string;
}

/**
 * Transactions of one account sent back to back with explicit nonces, none
 * waiting for the previous receipt: the devnet mines them in nonce order, so a
 * contract's address is known (CREATE from sender and nonce, or CREATE2 from
 * the factory and salt) before it exists. `settle` waits for all of them and
 * names the first that reverted. A dry run (CREATE2 only) sends nothing and
 * only computes the addresses of a deployment that already exists.
 */
export interface TxSequence {
  readonly sender: Address;
  /** Transactions sent so far. */
  readonly count: number;
  deploy(label: string, abi: Abi, bytecode: Hex, args?: readonly unknown[]): Promise<Address>;
  call(label: string, to: Address, abi: Abi, functionName: string, args?: readonly unknown[], gas?: bigint): Promise<Hash>;
  settle(): Promise<void>;
}

/** The address `factory` deploys `initCode` at with the salt for `label`. */
export function create2Address(create2: Create2Options, label: string, initCode: Hex): { address: Address; salt: Hex } {
  const salt = keccak256(stringToHex(`${create2.saltPrefix}${label}`));
  return { address: getContractAddress({ opcode: 'CREATE2', from: create2.factory, salt, bytecode: initCode }), salt };
}

const CREATE2_FACTORY_ABI = [
  {
    type: 'function',
    name: 'deploy',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'salt', type: 'bytes32' },
      { name: 'initCode', type: 'bytes' },
    ],
    outputs: [{ name: 'addr', type: 'address' }],
  },
] as const;

export async function startTxSequence(
  publicClient: PublicClient<Transport, Chain | undefined>,
  walletClient: WalletClient<Transport, Chain | undefined, Account>,
  options: { create2?: Create2Options; dryRun?: boolean } = {},
): Promise<TxSequence> {
  const { create2, dryRun = false } = options;
  if (dryRun && !create2) throw new Error('startTxSequence: a dry run needs CREATE2 addresses');
  const account = walletClient.account;
  const sender = account.address;
  let nonce = await publicClient.getTransactionCount({ address: sender, blockTag: 'pending' });
  const block = await publicClient.getBlock();
  // Headroom for the base fee to rise while the sequence is mined (at most 12.5 % a block).
  const maxFeePerGas = (block.baseFeePerGas ?? 10n ** 9n) * 3n + 10n ** 9n;
  const maxPriorityFeePerGas = 1n;
  const sent: { label: string; hash: Hash }[] = [];

  const send = async (label: string, to: Address | null, data: Hex, gas: bigint): Promise<Hash> => {
    if (dryRun) return `0x${'0'.repeat(64)}`;
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
      const initCode = encodeDeployData({ abi, bytecode, args });
      if (create2) {
        const { address, salt } = create2Address(create2, label, initCode);
        await send(label, create2.factory, encodeFunctionData({ abi: CREATE2_FACTORY_ABI, functionName: 'deploy', args: [salt, initCode] }), DEPLOY_GAS);
        return address;
      }
      const address = getContractAddress({ from: sender, nonce: BigInt(nonce) });
      await send(label, null, initCode, DEPLOY_GAS);
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
