import { createHash } from 'node:crypto';
import { hexToBytes, type Address } from 'viem';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58(bytes: Uint8Array): string {
  let n = BigInt('0x' + Buffer.from(bytes).toString('hex'));
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();

/** Tron base58check address of an EVM address: 0x41 ‖ 20 bytes ‖ first 4 bytes of sha256². */
export function tronAddressFromEvm(evm: Address): string {
  const payload = Buffer.concat([Buffer.from([0x41]), hexToBytes(evm)]);
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return base58(Buffer.concat([payload, checksum]));
}
