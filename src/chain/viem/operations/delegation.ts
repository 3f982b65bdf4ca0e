import { concat, type Address, type Hex, type LocalAccount, type SignedAuthorization } from 'viem';
import type { ChainName } from '../../../domain/chains';
import type { ChainAccess } from '../chainAccess';

/** EIP-7702: a delegated account's code is this prefix followed by the delegate's address. */
const DESIGNATOR_PREFIX = '0xef0100';

/** The code an account delegated to `delegate` has. */
export const designatorOf = (delegate: Address): Hex => concat([DESIGNATOR_PREFIX, delegate]).toLowerCase() as Hex;

/**
 * EntryPoint v0.8's initCode for an EIP-7702 account: the marker 0x7702
 * right-padded to 20 bytes (nothing after it: no initialisation call). With
 * it the userOpHash covers the account's delegate, so an operation signed for
 * Simple7702Account never runs under another delegate.
 */
export const EIP7702_INIT_CODE: Hex = '0x7702000000000000000000000000000000000000';

/** Whether `wallet` on `chain` is delegated to `delegate` now (no code, or another delegate: not). */
export async function isDelegatedTo(access: ChainAccess, chain: ChainName, wallet: Address, delegate: Address): Promise<boolean> {
  const code = await access.call(chain, (c) => c.client.getCode({ address: wallet }));
  return (code ?? '0x').toLowerCase() === designatorOf(delegate);
}

/**
 * The wallet's EIP-7702 authorization of `delegate` at `nonce` (its current
 * account nonce), signed through the key provider's account (local or
 * pkcs11). It is carried by the gas tank's bundle (type 4); the wallet sends
 * nothing itself.
 */
export async function authorize(access: ChainAccess, chain: ChainName, wallet: LocalAccount, delegate: Address, nonce: number): Promise<SignedAuthorization> {
  if (wallet.signAuthorization === undefined) throw new Error(`the key provider's account ${wallet.address} signs no EIP-7702 authorizations`);
  return wallet.signAuthorization({ contractAddress: delegate, chainId: access.client(chain).chain.id, nonce });
}
