import {
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  keccak256,
  type Address,
  type Hex,
  type LocalAccount,
  type SignedAuthorization,
} from 'viem';
import type { ChainName } from '../../../domain/chains';
import { ServiceError } from '../../../domain/errors/base';
import type { ChainAccess } from '../chainAccess';
import type { Fees } from '../feeEstimates';
import { isExecutionRevert, isTransportError } from '../nodeErrors';
import { entryPoint08Abi } from './abis';
import { revertDataOf } from './revertReasons';

export interface Bundle {
  chain: ChainName;
  entryPoint: Address;
  gasTank: LocalAccount;
  data: Hex;
  authorization?: SignedAuthorization;
}

/**
 * Gas of the bundle (handleOps from the gas tank, with the authorization),
 * estimated by the node with a fifth over. This is also the bundle's
 * simulation: a validation the EntryPoint refuses (FailedOp: the wallet's or
 * the paymaster's signature, the deposit) fails here, before the bundle is
 * signed. A call of the operation that reverts does not: handleOps catches it
 * (executionGas refused that earlier).
 */
export async function bundleGas(access: ChainAccess, b: Bundle): Promise<bigint> {
  try {
    const gas = await access.call(b.chain, (c) =>
      c.client.estimateGas({
        account: b.gasTank.address,
        to: b.entryPoint,
        data: b.data,
        ...(b.authorization && { authorizationList: [b.authorization] }),
      }),
    );
    return (gas * 12n) / 10n;
  } catch (e) {
    if (isTransportError(e) || !isExecutionRevert(e)) throw e;
    throw new ServiceError('INTERNAL_ERROR', `The EntryPoint refuses the user operation on ${b.chain}: ${failedOpReason(e)}`, {
      details: { chain: b.chain },
    });
  }
}

/** FailedOp's reason ("AA34 signature error", …) when the node's error carries it. */
function failedOpReason(e: unknown): string {
  const reverted = e instanceof BaseError ? (e.walk((x) => x instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null) : null;
  const data = revertDataOf(e);
  try {
    if (data !== undefined) {
      const { errorName, args } = decodeErrorResult({ abi: entryPoint08Abi, data });
      return `${errorName}(${(args ?? []).map(String).join(', ')})`;
    }
  } catch {
    // not an EntryPoint error
  }
  return reverted?.reason ?? (e instanceof BaseError ? e.shortMessage : String(e));
}

/** The bundle signed by the gas tank at `nonce`: type 4 with the authorization, else EIP-1559. */
export async function signBundle(b: Bundle, chainId: number, nonce: number, gas: bigint, fees: Fees): Promise<{ raw: Hex; txHash: Hex }> {
  const common = { chainId, to: b.entryPoint, data: b.data, nonce, gas, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
  const raw = b.authorization
    ? await b.gasTank.signTransaction({ ...common, type: 'eip7702', authorizationList: [b.authorization] })
    : await b.gasTank.signTransaction({ ...common, type: 'eip1559' });
  return { raw, txHash: keccak256(raw) };
}
