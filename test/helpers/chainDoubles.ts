import type { Address } from 'viem';
import type { AccountModel, ChainName, TokenAsset } from '../../src/domain/chains';
import type { TxKind } from '../../src/ports/chain';

/**
 * What the chain port's test doubles (test/unit/engine/fakeChain.ts and
 * bench/support/instantChain.ts) share, so that they answer alike where the
 * chain port contract suite holds them to the adapter.
 */

/** The token contract a double names for `asset`: a fixed, recognisable address (the symbol's bytes). */
export function doubleToken(asset: TokenAsset): Address {
  return `0x${Buffer.from(asset.padEnd(20, '\0')).toString('hex')}` as Address;
}

/** Gas a mined transaction of each kind uses on a double (receipts; estimates answer TYPICAL_GAS). */
export const DOUBLE_GAS: Readonly<Record<TxKind, bigint>> = {
  approve: 46_000n,
  revoke: 29_000n,
  supply: 180_000n,
  withdraw: 150_000n,
  burn: 120_000n,
  mint: 90_000n,
  transfer: 52_000n,
};

/** A double's account model: it runs no user operations (no sendOperation), so every chain is `plain`, as a deployment without `accountModel` says. */
export function doubleAccountModel(_chain: ChainName): AccountModel {
  return 'plain';
}
