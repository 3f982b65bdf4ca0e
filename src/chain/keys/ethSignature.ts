import { bytesToHex, isAddressEqual, recoverAddress, type Address, type Hex, type Signature } from 'viem';
import { signatureRefused } from '../../domain/errors/keys';

/** The order of secp256k1's group. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = SECP256K1_N / 2n;

const word = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;

/**
 * An Ethereum signature from a bare ECDSA answer `r ‖ s` (64 bytes, what
 * CKM_ECDSA returns): `s` brought into the lower half (EIP-2), and the
 * recovery id found by recovering against `address`. A signature that
 * recovers to neither parity's address is refused: it is never sent.
 */
export async function toEthSignature(digest: Hex, raw: Uint8Array, address: Address): Promise<Signature> {
  if (raw.length !== 64) throw signatureRefused(address, `the token answered ${raw.length} bytes, not r ‖ s (64)`);
  const r = BigInt(bytesToHex(raw.subarray(0, 32)));
  let s = BigInt(bytesToHex(raw.subarray(32)));
  if (r === 0n || s === 0n || r >= SECP256K1_N || s >= SECP256K1_N) throw signatureRefused(address, 'r or s out of range');
  if (s > HALF_N) s = SECP256K1_N - s;
  for (const yParity of [0, 1] as const) {
    const signature: Signature = { r: word(r), s: word(s), yParity, v: BigInt(27 + yParity) };
    const recovered = await recoverAddress({ hash: digest, signature }).catch(() => undefined);
    if (recovered && isAddressEqual(recovered, address)) return signature;
  }
  throw signatureRefused(address, 'the signature does not recover to the key’s address');
}
