import type { LocalAccount } from 'viem';
import type { ChainName } from '../../../domain/chains';
import { ServiceError } from '../../../domain/errors/base';
import type { SignedOperation, TxRequest } from '../../../ports/chain';
import type { Erc4337Contracts } from '../../../ports/deploymentManifest';
import type { ChainAccess } from '../chainAccess';
import { encodeTx } from '../encodeTx';
import type { FeeEstimates } from '../feeEstimates';
import type { NonceSender } from '../nonceSender';
import type { ServiceAccounts } from '../serviceAccounts';
import { entryPoint08Abi } from './abis';
import { bundleGas, signBundle, type Bundle } from './bundle';
import { executionGas } from './callGas';
import { authorize, isDelegatedTo } from './delegation';
import { batchCallData, signedOperation } from './userOperation';

export interface OperationContext {
  access: ChainAccess;
  sendWithNonce: NonceSender;
  fees: FeeEstimates;
  accounts: ServiceAccounts;
}

/** Execution gas over the estimate: the estimate's own 21,000 of a transaction plus a tenth (under EntryPoint v0.8's 40,000 of unused gas before its penalty). */
const withMargin = (gas: bigint): bigint => (gas * 11n) / 10n;

/** The chain's ERC-4337 contracts; a chain without them runs no operations. */
export function erc4337Of(access: ChainAccess, chain: ChainName): Erc4337Contracts {
  const erc4337 = access.client(chain).deployment.erc4337;
  if (erc4337 === undefined) throw new ServiceError('INVALID_CHAIN', `No ERC-4337 contracts on ${chain}`, { details: { chain } });
  return erc4337;
}

/**
 * ChainPort.sendOperation. Before anything is signed: the calls are encoded
 * as the plain path sends them, the wallet's delegation, its EntryPoint nonce
 * (key 0) and the fees are read, and the batch is run as the EntryPoint will
 * run it (a revert refuses: WouldRevertError). Then the wallet's
 * authorization when its delegation is missing or points elsewhere, the gas
 * tank's sponsorship, the wallet's signature of the userOpHash; the bundle
 * (handleOps from the gas tank, type 4 with the authorization) is simulated
 * by its estimate, signed at the gas tank's shared nonce, handed to
 * `onSigned`, then broadcast. The wallet never needs native gas.
 * With `gasIfReverts` (the sandbox's injected reverts), a reverting batch is
 * given that execution gas and sent: it is mined and the operation fails.
 */
export async function sendOperation(
  ctx: OperationContext,
  wallet: LocalAccount,
  chain: ChainName,
  calls: readonly TxRequest[],
  onSigned: (signed: SignedOperation) => Promise<void>,
  gasIfReverts?: bigint,
): Promise<SignedOperation> {
  const { access } = ctx;
  const c = access.client(chain);
  const erc4337 = erc4337Of(access, chain);
  const gasTank = ctx.accounts.gasTank;
  if (calls.length === 0) throw new ServiceError('INTERNAL_ERROR', 'A user operation with no calls', { details: { chain } });
  const callData = batchCallData(calls.map((tx) => encodeTx(c, tx, wallet.address)));

  // one round trip: the reads and the batch's run, side by side
  const delegation = isDelegatedTo(access, chain, wallet.address, erc4337.delegate);
  const [delegated, nonce, fees, accountNonce, callGas] = await Promise.all([
    delegation,
    access.call(chain, (x) =>
      x.client.readContract({ address: erc4337.entryPoint, abi: entryPoint08Abi, functionName: 'getNonce', args: [wallet.address, 0n] }),
    ),
    ctx.fees.get(chain),
    access.call(chain, (x) => x.client.getTransactionCount({ address: wallet.address, blockTag: 'pending' })),
    executionGas(
      access,
      chain,
      {
        wallet: wallet.address,
        entryPoint: erc4337.entryPoint,
        delegate: erc4337.delegate,
        callData,
        calls,
        ...(gasIfReverts !== undefined && { gasIfReverts }),
      },
      delegation,
    ),
  ]);

  const authorization = delegated ? undefined : await authorize(access, chain, wallet, erc4337.delegate, accountNonce);
  const op = await signedOperation({
    chainId: c.chain.id,
    entryPoint: erc4337.entryPoint,
    delegate: erc4337.delegate,
    paymaster: erc4337.paymaster,
    wallet,
    gasTank,
    nonce,
    callData,
    callGasLimit: gasIfReverts !== undefined && callGas === gasIfReverts ? callGas : withMargin(callGas),
    fees,
    ...(authorization && { authorization }),
  });
  const bundle: Bundle = { chain, entryPoint: erc4337.entryPoint, gasTank, data: op.bundleData, ...(authorization && { authorization }) };
  const kind = calls[0]!.kind;

  return ctx.sendWithNonce(
    chain,
    gasTank,
    () => bundleGas(access, bundle),
    async (bundleNonce, gas): Promise<SignedOperation> => {
      const { raw, txHash } = await signBundle(bundle, c.chain.id, bundleNonce, gas, fees);
      const signed: SignedOperation = {
        chain,
        kind,
        txHash,
        from: gasTank.address,
        nonce: bundleNonce,
        raw,
        userOpHash: op.userOpHash,
        opNonce: nonce,
        delegated: authorization !== undefined,
      };
      await onSigned(signed);
      return signed;
    },
  );
}
