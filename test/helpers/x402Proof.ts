import { randomBytes } from 'node:crypto';
import { toHex, type Address, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { authorizationTypes } from '@x402/evm';
import type { Json } from './server';

/** The EIP-3009 authorization of an x402 "exact" EVM payment. */
export interface Authorization {
  from: Address;
  to: Address;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

/**
 * A v2 payment proof (the PAYMENT-SIGNATURE header value) for `offer`'s first
 * accept, signed by hand so tests can make any field wrong on purpose:
 * `change` overrides the authorization, `accepted` the accept it names,
 * `signWith` signs with another key (a forgery).
 */
export async function signProof(
  account: PrivateKeyAccount,
  offer: { accepts: Json[]; resource: Json },
  change: Partial<Authorization> = {},
  o: { accepted?: Partial<Json>; signWith?: PrivateKeyAccount; validForSeconds?: number } = {},
): Promise<string> {
  const accepted = { ...offer.accepts[0], ...o.accepted };
  const authorization: Authorization = {
    from: account.address,
    to: accepted.payTo,
    value: accepted.amount,
    validAfter: '0',
    validBefore: String(Math.floor(Date.now() / 1000) + (o.validForSeconds ?? 60)),
    nonce: toHex(randomBytes(32)),
    ...change,
  };
  const signature = await (o.signWith ?? account).signTypedData({
    domain: {
      name: accepted.extra.name,
      version: accepted.extra.version,
      chainId: Number(String(accepted.network).split(':')[1]),
      verifyingContract: accepted.asset,
    },
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    },
  });
  return Buffer.from(JSON.stringify({ x402Version: 2, resource: offer.resource, accepted, payload: { signature, authorization } })).toString('base64');
}
