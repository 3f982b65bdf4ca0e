import { keccak256, type Address, type LocalAccount } from 'viem';
import type { ChainName } from '../../domain/chains';
import { networkError } from '../../domain/errors/chain';
import type { ChainAccess } from './chainAccess';
import type { FeeEstimates } from './feeEstimates';
import { nonceTaken } from './nodeErrors';
import type { NonceSender } from './nonceSender';

/**
 * Gas limit of a top-up: 21,000 for a plain account; a wallet delegated by
 * EIP-7702 (funds lent through a user operation, withdrawn on the plain path)
 * runs its delegate's receive() and the delegation's cold access. Only the
 * gas used is paid.
 */
const TOP_UP_GAS_LIMIT = 60_000n;

/**
 * How long a gas top-up is waited for before the step retries: long enough
 * for a devnet stalled by the sandbox fault (at most 600 s) to resume.
 */
const TOP_UP_WAIT_MS = 15 * 60_000;

export interface GasTopUpContext {
  access: ChainAccess;
  sendWithNonce: NonceSender;
  fees: FeeEstimates;
  gasTank: LocalAccount;
  /** A wallet below this native balance is topped up. */
  minGasWei: bigint;
  topUpWei: bigint;
}

/** Tops `address` up with native gas from the gas tank when it runs low, and waits for it to land; what the tank paid (value and the top-up's own gas), 0 when nothing was sent. */
export async function topUpGas(ctx: GasTopUpContext, chain: ChainName, address: Address): Promise<bigint> {
  const { access, gasTank } = ctx;
  const balance = await access.call(chain, (c) => c.client.getBalance({ address }));
  if (balance >= ctx.minGasWei) return 0n;
  const c = access.client(chain);
  const { raw } = await ctx
    .sendWithNonce(
      chain,
      gasTank,
      () => ctx.fees.get(chain),
      async (nonce, fees) => ({
        raw: await gasTank.signTransaction({ chainId: c.chain.id, type: 'eip1559', to: address, value: ctx.topUpWei, nonce, gas: TOP_UP_GAS_LIMIT, ...fees }),
      }),
    )
    .catch((e: unknown) => {
      // nothing was signed for the caller yet: contention on the tank is transient, the engine retries with back-off
      throw nonceTaken(e) ? networkError(chain, e) : e;
    });
  const receipt = await access.call(chain, (x) => x.client.waitForTransactionReceipt({ hash: keccak256(raw), timeout: TOP_UP_WAIT_MS }));
  return ctx.topUpWei + receipt.gasUsed * receipt.effectiveGasPrice;
}
