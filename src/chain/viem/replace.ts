import { keccak256, parseTransaction } from 'viem';
import { ServiceError } from '../../domain/errors/base';
import type { SignedTx, TxSigner } from '../../ports/chain';
import { broadcast } from './broadcast';
import type { ChainAccess } from './chainAccess';
import { nonceTaken } from './nodeErrors';
import { accountOf, type ServiceAccounts } from './serviceAccounts';

/** Fee caps of a replacement: 12.5 % over the replaced ones (nodes ask for at least 10 %), plus one wei. */
const bumped = (fee: bigint | undefined): bigint => (fee === undefined ? 0n : (fee * 1125n) / 1000n + 1n);
const maxOf = (...xs: bigint[]): bigint => xs.reduce((a, b) => (b > a ? b : a));

/** ChainPort.replace: the same transaction at the same nonce, both fee caps bumped (or raised to the current estimate), handed to `onSigned`, then broadcast. */
export async function replace(
  ctx: { access: ChainAccess; accounts: ServiceAccounts },
  signer: TxSigner,
  sent: Pick<SignedTx, 'chain' | 'kind' | 'raw'>,
  onSigned: (signed: SignedTx) => Promise<void>,
): Promise<SignedTx> {
  const { access } = ctx;
  const account = accountOf(ctx.accounts, signer);
  const c = access.client(sent.chain);
  const before = parseTransaction(sent.raw);
  if ((before.type !== 'eip1559' && before.type !== 'eip7702') || before.nonce === undefined) {
    throw new ServiceError('INTERNAL_ERROR', 'Only EIP-1559 and EIP-7702 transactions are replaced', { details: { chain: sent.chain, kind: sent.kind } });
  }
  const now = await access.call(sent.chain, (x) => x.client.estimateFeesPerGas());
  const maxPriorityFeePerGas = maxOf(bumped(before.maxPriorityFeePerGas), now.maxPriorityFeePerGas);
  const maxFeePerGas = maxOf(bumped(before.maxFeePerGas), now.maxFeePerGas, maxPriorityFeePerGas);
  const fields = {
    chainId: c.chain.id,
    to: before.to,
    data: before.data,
    value: before.value,
    nonce: before.nonce,
    gas: before.gas,
    maxFeePerGas,
    maxPriorityFeePerGas,
  };
  // A bundle that delegates its wallet keeps the authorization the wallet signed (still unused, as the bundle was not mined).
  const raw =
    before.type === 'eip7702'
      ? await account.signTransaction({ ...fields, type: 'eip7702', authorizationList: before.authorizationList ?? [] })
      : await account.signTransaction({ ...fields, type: 'eip1559' });
  const signed: SignedTx = { chain: sent.chain, kind: sent.kind, txHash: keccak256(raw), from: account.address, nonce: before.nonce, raw };
  await onSigned(signed);
  try {
    await broadcast(access, sent.chain, raw);
  } catch (e) {
    // The nonce went to the replaced bytes (mined meanwhile) or the node wants a higher bump:
    // either way the follower keeps watching every hash of this nonce.
    if (!nonceTaken(e)) throw e;
  }
  return signed;
}
