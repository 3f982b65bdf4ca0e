import { keccak256, type LocalAccount } from 'viem';
import { WouldRevertError, type SignedTx, type TxRequest, type TxSigner } from '../../ports/chain';
import type { ChainAccess } from './chainAccess';
import { encodeTx } from './encodeTx';
import type { FeeEstimates } from './feeEstimates';
import { topUpGas, type GasTopUpContext } from './gasTopUp';
import { isExecutionRevert, revertReason } from './nodeErrors';
import type { NonceSender } from './nonceSender';
import type { PermitSigner } from './permit';
import { accountOf, type ServiceAccounts } from './serviceAccounts';

export interface SendContext {
  access: ChainAccess;
  sendWithNonce: NonceSender;
  fees: FeeEstimates;
  accounts: ServiceAccounts;
  gas: GasTopUpContext;
  permits: PermitSigner;
}

/**
 * ChainPort.send: a wallet signer low on native gas is topped up first, then
 * the transaction is signed, handed to `onSigned`, and broadcast. The top-up
 * runs beside the transaction's own preparation (gas estimate, nonce): both
 * only read the chain, and eth_estimateGas without fee fields checks no
 * balance; nothing is signed for the wallet before the top-up has landed.
 */
export async function send(
  ctx: SendContext,
  signer: TxSigner,
  tx: TxRequest,
  onSigned: (signed: SignedTx) => Promise<void>,
  onGasTopUp?: (wei: bigint) => void,
  gasIfReverts?: bigint,
): Promise<SignedTx> {
  const account = accountOf(ctx.accounts, signer);
  const topUp =
    typeof signer === 'object'
      ? topUpGas(ctx.gas, tx.chain, account.address).then((wei) => {
          if (wei > 0n) onGasTopUp?.(wei);
        })
      : Promise.resolve();
  try {
    return await signAndSend(ctx, account, tx, onSigned, topUp, gasIfReverts);
  } finally {
    // a send refused before signing (it would revert) still reports a top-up it started
    await topUp.catch(() => undefined);
  }
}

/**
 * Signs with the signer's next nonce once `landed` (the gas top-up) has, hands the hash over, then broadcasts.
 * With `gasIfReverts`, a call whose estimate fails is signed at that limit instead of refused (so it is mined and reverts).
 */
async function signAndSend(
  ctx: SendContext,
  account: LocalAccount,
  tx: TxRequest,
  onSigned: (s: SignedTx) => Promise<void>,
  landed: Promise<void>,
  gasIfReverts?: bigint,
): Promise<SignedTx> {
  const { access } = ctx;
  const c = access.client(tx.chain);
  // a permit supply's permit is signed once: a fresh nonce below, or a fee-bumped replacement, carries the same one
  const permit = tx.kind === 'supply' && tx.permit ? await ctx.permits.sign(account, tx) : undefined;
  const { to, data } = encodeTx(c, tx, account.address, permit);
  const estimate = () =>
    access
      .call(tx.chain, (x) => x.client.estimateGas({ account: account.address, to, data }))
      .then(
        (g) => (g * 12n) / 10n,
        (e) => {
          if (gasIfReverts !== undefined) return gasIfReverts;
          // an estimation revert is refused here, before signing: sending it would only burn gas
          if (isExecutionRevert(e)) throw new WouldRevertError(tx.chain, tx.kind, revertReason(e));
          throw e;
        },
      );
  const prepare = async () => {
    // a failed top-up is reported before the estimate's refusal, as when the top-up came first
    const [top, fees, gas] = await Promise.allSettled([landed, ctx.fees.get(tx.chain), estimate()]);
    if (top.status === 'rejected') throw top.reason;
    if (fees.status === 'rejected') throw fees.reason;
    if (gas.status === 'rejected') throw gas.reason;
    return [fees.value, gas.value] as const;
  };
  // Another process may share a service account (tests, several instances): a nonce taken
  // under our feet is re-signed with a fresh one; the rejected hash never reached the chain.
  return ctx.sendWithNonce(tx.chain, account, prepare, async (nonce, [fees, gas]): Promise<SignedTx> => {
    const raw = await account.signTransaction({
      chainId: c.chain.id,
      type: 'eip1559',
      to,
      data,
      nonce,
      gas,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const signed: SignedTx = { chain: tx.chain, kind: tx.kind, txHash: keccak256(raw), from: account.address, nonce, raw };
    await onSigned(signed);
    return signed;
  });
}
