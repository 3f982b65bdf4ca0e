import {
  hashTypedData,
  keccak256,
  parseSignature,
  parseTransaction,
  recoverAddress,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  toHex,
  type Hex,
  type TransactionSerializable,
} from 'viem';
import { recoverAuthorizationAddress } from 'viem/utils';
import type { KeyProvider } from '../../src/ports/keyProvider';
import type { Store } from '../../src/ports/store';
import { SECP256K1_N } from '../../src/chain/keys/ethSignature';

/**
 * The KeyProvider contract of src/ports/keyProvider.ts, run on every provider
 * (keyProvider.local.test.ts, keyProvider.pkcs11.test.ts) with the same tests.
 * `make` builds a provider over `store`; calling it twice gives a second
 * instance sharing the same keys (another process on the same database and token).
 */
export interface ContractProviders {
  make(store: Store): Promise<KeyProvider>;
  makeStore(): Promise<Store>;
}

let seq = 0;
const walletId = () => `svc_wallet_kp${Date.now().toString(36)}${(seq++).toString(36)}`;
const digestOf = (n: number): Hex => keccak256(toHex(`digest ${n}`));
const HALF_N = SECP256K1_N / 2n;

const typedData = {
  domain: { name: 'USD Coin', version: '2', chainId: 84532, verifyingContract: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' },
  types: {
    TransferWithAuthorization: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'validAfter', type: 'uint256' },
      { name: 'validBefore', type: 'uint256' },
      { name: 'nonce', type: 'bytes32' },
    ],
  },
  primaryType: 'TransferWithAuthorization',
  message: {
    from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    to: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
    value: 1000n,
    validAfter: 0n,
    validBefore: 2n ** 40n,
    nonce: keccak256(toHex('nonce')),
  },
} as const;

export function describeKeyProviderContract(name: string, providers: ContractProviders): void {
  describe(`key provider contract: ${name}`, () => {
    let store: Store;
    let provider: KeyProvider;
    beforeAll(async () => {
      store = await providers.makeStore();
      provider = await providers.make(store);
    });
    afterAll(async () => {
      await provider?.close();
      await store?.close();
    });

    test('behavior: a created key signs digests low-s, recovering to the address it was created with', async () => {
      const id = walletId();
      const address = await provider.createKey(id);
      expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect((await store.walletKeys.get(id))?.address).toBe(address);
      for (let i = 0; i < 8; i++) {
        const sig = await provider.signDigest(id, digestOf(i));
        expect(BigInt(sig.s)).toBeLessThanOrEqual(HALF_N);
        expect(await recoverAddress({ hash: digestOf(i), signature: sig })).toBe(address);
      }
    });

    test('behavior: the signer signs every transaction type the service sends, EIP-712 data, messages, raw digests and EIP-7702 authorizations', async () => {
      const id = walletId();
      const address = await provider.createKey(id);
      const account = await provider.signer(id);
      expect(account.address).toBe(address);
      const base = { chainId: 84532, to: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc', nonce: 3, gas: 21_000n, value: 1n, data: '0x' } as const;
      const txs: TransactionSerializable[] = [
        { ...base, type: 'legacy', gasPrice: 10n },
        { ...base, type: 'eip2930', gasPrice: 10n, accessList: [] },
        { ...base, type: 'eip1559', maxFeePerGas: 10n, maxPriorityFeePerGas: 1n },
        {
          ...base,
          type: 'eip7702',
          maxFeePerGas: 10n,
          maxPriorityFeePerGas: 1n,
          authorizationList: [await account.signAuthorization!({ chainId: 84532, address: '0xe6Cae83BdE06E4c305530e199D7217f42808555B', nonce: 4 })],
        },
      ];
      for (const tx of txs) {
        const raw = await account.signTransaction(tx);
        expect(parseTransaction(raw).type).toBe(tx.type);
        expect(await recoverTransactionAddress({ serializedTransaction: raw as never })).toBe(address);
      }
      const auth = await account.signAuthorization!({ chainId: 84532, address: '0xe6Cae83BdE06E4c305530e199D7217f42808555B', nonce: 0 });
      expect(await recoverAuthorizationAddress({ authorization: auth })).toBe(address);
      const typed = await account.signTypedData(typedData);
      expect(await recoverTypedDataAddress({ ...typedData, signature: typed })).toBe(address);
      expect(await recoverAddress({ hash: hashTypedData(typedData), signature: typed })).toBe(address);
      const message = await account.signMessage({ message: 'one read of the wallet API' });
      expect(await recoverMessageAddress({ message: 'one read of the wallet API', signature: message })).toBe(address);
      const raw = await account.sign!({ hash: digestOf(99) });
      expect(BigInt(parseSignature(raw).s)).toBeLessThanOrEqual(HALF_N);
      expect(await recoverAddress({ hash: digestOf(99), signature: raw })).toBe(address);
    });

    test('behavior: the signer carries no key material: only the address and signing functions', async () => {
      const id = walletId();
      await provider.createKey(id);
      const account = await provider.signer(id);
      const fields = Object.entries(account).filter(([, v]) => typeof v !== 'function' && v !== undefined);
      expect(Object.fromEntries(fields)).toEqual({ address: account.address, source: 'custom', type: 'local' });
    });

    test('behavior: 40 signatures at once over several wallets all recover to their own addresses', async () => {
      const ids = [walletId(), walletId(), walletId(), walletId()];
      const addresses = await Promise.all(ids.map((id) => provider.createKey(id)));
      const sigs = await Promise.all(Array.from({ length: 40 }, (_, i) => provider.signDigest(ids[i % 4]!, digestOf(i))));
      const recovered = await Promise.all(sigs.map((signature, i) => recoverAddress({ hash: digestOf(i), signature })));
      expect(recovered).toEqual(Array.from({ length: 40 }, (_, i) => addresses[i % 4]));
    });

    test('behavior: a service key keeps its address from one call to the next and signs', async () => {
      const first = await provider.serviceSigner('gas-tank', { create: true });
      const again = await provider.serviceSigner('gas-tank', { create: true });
      expect(again.address).toBe(first.address);
      const sig = await first.sign!({ hash: digestOf(7) });
      expect(await recoverAddress({ hash: digestOf(7), signature: sig })).toBe(first.address);
    });

    test('behavior: a wallet created on one instance signs on another sharing the store and keys', async () => {
      const id = walletId();
      const address = await provider.createKey(id);
      const other = await providers.make(store);
      try {
        const account = await other.signer(id);
        expect(account.address).toBe(address);
        expect(await recoverAddress({ hash: digestOf(5), signature: await account.sign!({ hash: digestOf(5) }) })).toBe(address);
      } finally {
        await other.close();
      }
    });

    test('behavior: a discarded key is gone from the store and signs no more', async () => {
      const id = walletId();
      await provider.createKey(id);
      await provider.discardKey(id);
      expect(await store.walletKeys.get(id)).toBeNull();
      await expect(provider.signer(id)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    });

    test('error: a wallet without a key is refused (INTERNAL_ERROR), nothing signed', async () => {
      await expect(provider.signer('svc_wallet_none')).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
      await expect(provider.signDigest('svc_wallet_none', digestOf(1))).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    });

    test('behavior: check() answers while the provider can sign', async () => {
      await expect(provider.check()).resolves.toBeUndefined();
    });
  });
}
