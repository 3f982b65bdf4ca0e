import { createHash } from 'node:crypto';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { hexToBytes } from 'viem';
import { tronAddressFromEvm } from '../../../src/domain/tronAddress';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Independent base58 decoder for checking the encoder. */
function base58Decode(s: string): Buffer {
  let n = 0n;
  for (const c of s) {
    const i = ALPHABET.indexOf(c);
    if (i < 0) throw new Error(`not base58: ${c}`);
    n = n * 58n + BigInt(i);
  }
  const hex = n.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = s.length - s.replace(/^1+/, '').length;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();

describe('tron address', () => {
  test('behavior: the reference vector: private key 0x…01 → 0x7E5F…5Bdf → TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC', () => {
    const evm = privateKeyToAccount(`0x${'0'.repeat(63)}1`).address;
    expect(evm).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
    expect(tronAddressFromEvm(evm)).toBe('TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC');
  });

  test('behavior: the checksum case of the EVM address does not matter', () => {
    expect(tronAddressFromEvm('0x7e5f4552091a69125d5dfcb7b8c2659029395bdf')).toBe('TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC');
  });

  test('behavior: any key gives 0x41 ‖ EVM bytes ‖ sha256² checksum in base58, starting with T', () => {
    for (let i = 0; i < 20; i++) {
      const evm = privateKeyToAccount(generatePrivateKey()).address;
      const tron = tronAddressFromEvm(evm);
      expect(tron).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      const raw = base58Decode(tron);
      expect(raw).toHaveLength(25);
      expect(raw[0]).toBe(0x41);
      expect(raw.subarray(1, 21).equals(Buffer.from(hexToBytes(evm)))).toBe(true);
      expect(raw.subarray(21).equals(sha256(sha256(raw.subarray(0, 21))).subarray(0, 4))).toBe(true);
    }
  });

  test('behavior: the zero address and 0xff… encode to valid 34-character addresses', () => {
    expect(tronAddressFromEvm('0x0000000000000000000000000000000000000000')).toBe('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb');
    expect(tronAddressFromEvm('0xffffffffffffffffffffffffffffffffffffffff')).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  });
});
