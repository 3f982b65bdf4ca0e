import { encodeAbiParameters, keccak256, slice, type Address, type Hex, type LocalAccount } from 'viem';
import type { PackedUserOperation } from 'viem/account-abstraction';

/**
 * The time range the service signs for: none (0, 0: valid from the start,
 * no expiry). The signature covers the operation's EntryPoint nonce, so it is
 * good once; a bundle replaced long after it was signed stays valid, and a
 * devnet clock moved forward (the sandbox's time control) does not expire it.
 */
const VALID_UNTIL = 0;
const VALID_AFTER = 0;

/**
 * ServicePaymaster.getHash(op, validUntil, validAfter), computed here (the
 * contract is ours, contracts/ServicePaymaster.sol; a test holds the two
 * equal): every field of the operation but its signature and the
 * paymaster's own data, with the chain, the paymaster and the time range.
 */
export function paymasterHash(op: PackedUserOperation, chainId: number, paymaster: Address): Hex {
  // the paymaster's two gas limits: bytes 20..52 of paymasterAndData
  const paymasterGas = BigInt(slice(op.paymasterAndData, 20, 52));
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'uint48' },
        { type: 'uint48' },
      ],
      [
        op.sender,
        op.nonce,
        keccak256(op.initCode),
        keccak256(op.callData),
        op.accountGasLimits,
        paymasterGas,
        op.preVerificationGas,
        op.gasFees,
        BigInt(chainId),
        paymaster,
        VALID_UNTIL,
        VALID_AFTER,
      ],
    ),
  );
}

/**
 * The paymasterData that makes ServicePaymaster sponsor `op` (built with
 * empty paymasterData): abi.encode(validUntil, validAfter) followed by the
 * gas tank's signature of the hash as an Ethereum signed message (through
 * the key provider's account).
 */
export async function sponsorship(gasTank: LocalAccount, op: PackedUserOperation, chainId: number, paymaster: Address): Promise<Hex> {
  const signature = await gasTank.signMessage({ message: { raw: paymasterHash(op, chainId, paymaster) } });
  const range = encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [VALID_UNTIL, VALID_AFTER]);
  return `${range}${signature.slice(2)}` as Hex;
}
