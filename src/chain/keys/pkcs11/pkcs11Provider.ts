import { getAddress, hexToBytes, keccak256, type Address, type Hex } from 'viem';
import type { LocalAccount } from 'viem/accounts';
import { keyNotFound } from '../../../domain/errors/keys';
import type { KeyProvider, KeyProviderObserver, ServiceKeyLabel } from '../../../ports/keyProvider';
import type { WalletKeyRepo } from '../../../ports/store';
import { digestAccount } from '../digestAccount';
import { toEthSignature } from '../ethSignature';
import type { Handle, Template } from './binding';
import type { Pkcs11Token } from './pkcs11Token';

/** CKA_EC_PARAMS of secp256k1: the DER of OID 1.3.132.0.10. */
export const SECP256K1_OID_DER = Buffer.from('06052b8104000a', 'hex');

/** The uncompressed point inside CKA_EC_POINT (a DER OCTET STRING around 04 ‖ X ‖ Y; some tokens give the bare point). */
export function pointToAddress(ecPoint: Buffer): Address {
  const point = ecPoint.length === 65 ? ecPoint : ecPoint[0] === 0x04 && ecPoint[1] === 65 ? ecPoint.subarray(2) : ecPoint.subarray(ecPoint.length - 65);
  if (point.length !== 65 || point[0] !== 0x04) throw new Error('CKA_EC_POINT is not an uncompressed secp256k1 point');
  return getAddress(`0x${keccak256(point.subarray(1)).slice(-40)}`);
}

/** Service keys carry this prefix as their label and id, apart from wallet ids. */
const serviceLabel = (label: ServiceKeyLabel): string => `service:${label}`;

interface KeyRef {
  address: Address;
  /** The private key's handle, with the pool generation it was found in. */
  handle?: { value: Handle; generation: number };
}

export interface Pkcs11ProviderOptions {
  token: Pkcs11Token;
  walletKeys: () => WalletKeyRepo;
  observer?: KeyProviderObserver;
  now?: () => Date;
}

/**
 * KEY_PROVIDER=pkcs11: keys generated inside the token (secp256k1,
 * sensitive, never extractable), labelled and identified by the wallet id
 * (or `service:<label>`); every signature made there with CKM_ECDSA over the
 * keccak digest, then brought to low-s and checked to recover to the key's
 * address. The store keeps the wallet id, the address and the key id only.
 * Signing and key generation use the binding's asynchronous calls (a worker
 * of the addon), so the event loop never waits on the token.
 */
export function createPkcs11Provider(o: Pkcs11ProviderOptions): KeyProvider & { token: Pkcs11Token } {
  const { token } = o;
  const { api, ck } = token;
  const now = o.now ?? (() => new Date());
  const refs = new Map<string, KeyRef>();
  const creating = new Map<string, Promise<Address>>();

  /** The token's key pair of `keyId`: [private, public] handles, or undefined. */
  function find(session: Handle, keyId: string): { priv?: Handle; pub?: Handle } {
    const one = (cls: number): Handle | undefined => {
      api.C_FindObjectsInit(session, [
        { type: ck.CKA_CLASS!, value: cls },
        { type: ck.CKA_LABEL!, value: keyId },
      ]);
      try {
        return api.C_FindObjects(session, 1)[0];
      } finally {
        api.C_FindObjectsFinal(session);
      }
    };
    return { priv: one(ck.CKO_PRIVATE_KEY!), pub: one(ck.CKO_PUBLIC_KEY!) };
  }

  const addressOf = (session: Handle, pub: Handle): Address => {
    const [attr] = api.C_GetAttributeValue(session, pub, [{ type: ck.CKA_EC_POINT! }]);
    return pointToAddress(attr!.value as Buffer);
  };

  /** Finds (or, with `create`, generates) the key pair of `keyId` in the token. */
  async function ensure(keyId: string, create: boolean): Promise<Address | undefined> {
    const known = refs.get(keyId);
    if (known) return known.address;
    const found = await token.withSession((s) => {
      const { priv, pub } = find(s, keyId);
      return priv && pub ? { address: addressOf(s, pub), handle: { value: priv, generation: token.generation() } } : undefined;
    });
    if (found) {
      refs.set(keyId, found);
      return found.address;
    }
    if (!create) return undefined;
    let pending = creating.get(keyId);
    if (!pending) {
      pending = generate(keyId).finally(() => creating.delete(keyId));
      creating.set(keyId, pending);
    }
    return pending;
  }

  async function generate(keyId: string): Promise<Address> {
    const id = Buffer.from(keyId, 'utf8');
    const common: Template = [
      { type: ck.CKA_KEY_TYPE!, value: ck.CKK_EC! },
      { type: ck.CKA_TOKEN!, value: true },
      { type: ck.CKA_LABEL!, value: keyId },
      { type: ck.CKA_ID!, value: id },
    ];
    const ref = await token.withSession(async (s) => {
      const pair = await api.C_GenerateKeyPairAsync(
        s,
        { mechanism: ck.CKM_EC_KEY_PAIR_GEN! },
        [
          ...common,
          { type: ck.CKA_CLASS!, value: ck.CKO_PUBLIC_KEY! },
          { type: ck.CKA_EC_PARAMS!, value: SECP256K1_OID_DER },
          { type: ck.CKA_VERIFY!, value: true },
          { type: ck.CKA_PRIVATE!, value: false },
        ],
        [
          ...common,
          { type: ck.CKA_CLASS!, value: ck.CKO_PRIVATE_KEY! },
          { type: ck.CKA_PRIVATE!, value: true },
          { type: ck.CKA_SENSITIVE!, value: true },
          { type: ck.CKA_SIGN!, value: true },
          { type: ck.CKA_EXTRACTABLE!, value: false },
        ],
      );
      return { address: addressOf(s, pair.publicKey), handle: { value: pair.privateKey, generation: token.generation() } };
    });
    refs.set(keyId, ref);
    return ref.address;
  }

  /** Signs `digest` with `keyId`'s key in the token; the answer is made an Ethereum signature or refused. */
  async function signWith(keyId: string, digest: Hex) {
    const address = await ensure(keyId, false);
    if (!address) throw keyNotFound(keyId);
    const started = performance.now();
    try {
      const raw = await token.withSession(async (s) => {
        let ref = refs.get(keyId)!;
        // Handles found before a reconnect are looked up again.
        if (!ref.handle || ref.handle.generation !== token.generation()) {
          const { priv } = find(s, keyId);
          if (!priv) throw keyNotFound(keyId);
          ref = { address, handle: { value: priv, generation: token.generation() } };
          refs.set(keyId, ref);
        }
        api.C_SignInit(s, { mechanism: ck.CKM_ECDSA! }, ref.handle!.value);
        return api.C_SignAsync(s, Buffer.from(hexToBytes(digest)), Buffer.alloc(72));
      });
      const signature = await toEthSignature(digest, raw, address);
      o.observer?.onSign?.('pkcs11', (performance.now() - started) / 1000, true);
      return signature;
    } catch (e) {
      o.observer?.onSign?.('pkcs11', (performance.now() - started) / 1000, false);
      throw e;
    }
  }

  const accounts = new Map<string, LocalAccount>();
  const accountOf = (keyId: string, address: Address): LocalAccount => {
    let a = accounts.get(keyId);
    if (!a) accounts.set(keyId, (a = digestAccount(address, (digest) => signWith(keyId, digest))));
    return a;
  };

  return {
    kind: 'pkcs11',
    token,
    async createKey(walletId) {
      const address = (await ensure(walletId, true))!;
      // No ciphertext: the store holds where the key is, never the key.
      await o.walletKeys().insert({ walletId, address, provider: 'pkcs11', keyId: walletId, createdAt: now().toISOString() });
      return address;
    },
    async discardKey(walletId) {
      await o.walletKeys().delete(walletId);
      await token.withSession((s) => {
        const { priv, pub } = find(s, walletId);
        for (const h of [priv, pub]) if (h) api.C_DestroyObject(s, h);
      });
      refs.delete(walletId);
      accounts.delete(walletId);
    },
    async signer(walletId) {
      const known = refs.get(walletId)?.address;
      if (known) return accountOf(walletId, known);
      const rec = await o.walletKeys().get(walletId);
      const keyId = rec?.keyId ?? walletId;
      const address = await ensure(keyId, false);
      if (!address) throw keyNotFound(walletId);
      return accountOf(keyId, address);
    },
    signDigest: (walletId, digest) => signWith(walletId, digest),
    async serviceSigner(label, options) {
      const keyId = serviceLabel(label);
      const address = await ensure(keyId, options?.create ?? false);
      if (!address) throw keyNotFound(keyId);
      return accountOf(keyId, address);
    },
    async check() {
      await token.withSession((s) => {
        api.C_FindObjectsInit(s, [{ type: ck.CKA_CLASS!, value: ck.CKO_PRIVATE_KEY! }]);
        try {
          api.C_FindObjects(s, 1);
        } finally {
          api.C_FindObjectsFinal(s);
        }
      });
    },
    async close() {
      token.close();
    },
  };
}
