import { execFileSync } from 'node:child_process';
import { keccak256, recoverAddress, toHex, type Hex } from 'viem';
import { createPkcs11Provider } from '../../src/chain/keys/pkcs11/pkcs11Provider';
import { openPkcs11Token, type Pkcs11Token } from '../../src/chain/keys/pkcs11/pkcs11Token';
import { SECP256K1_N, toEthSignature } from '../../src/chain/keys/ethSignature';
import { KeyProviderStartError } from '../../src/chain/keys/startError';
import type { KeyProvider } from '../../src/ports/keyProvider';
import type { Store } from '../../src/ports/store';
import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { createSoftToken, softhsmMissing, SOFTHSM_MODULE, type SoftToken } from '../helpers/softhsm';
import { describeKeyProviderContract } from './keyProvider.contract';

/**
 * The key provider contract on a SoftHSM2 token of this file's own (a temp
 * directory, SOFTHSM2_CONF pointing at it), plus what only a token can show.
 * Skipped, with the reason printed, where the module or binding is missing.
 */
const missing = softhsmMissing();
if (missing) console.warn(`keyProvider.pkcs11: skipped: ${missing}`);
const run = missing ? describe.skip : describe;

let soft: SoftToken | undefined;
const tokens: Pkcs11Token[] = [];
const open = (pin = soft!.pin, label = soft!.label) => {
  const t = openPkcs11Token({ module: SOFTHSM_MODULE, tokenLabel: label, pin, sessions: 3 });
  tokens.push(t);
  return t;
};
const provide = (store: Store) => createPkcs11Provider({ token: open(), walletKeys: () => store.walletKeys });

if (!missing) {
  soft = createSoftToken();
  afterAll(() => soft?.remove());
  describeKeyProviderContract('pkcs11 (SoftHSM2)', { makeStore: async () => createMemoryStore(), make: async (store) => provide(store) });
}

const digest = (n: number): Hex => keccak256(toHex(`pkcs11 ${n}`));

run('key provider: pkcs11 only', () => {
  let store: Store;
  let provider: KeyProvider & { token: Pkcs11Token };
  beforeAll(() => {
    store = createMemoryStore();
    provider = provide(store);
  });
  afterAll(async () => {
    await provider.close();
  });

  /** The private key object of `label`, found with the test's own session. */
  const privateKeyOf = (token: Pkcs11Token, session: Buffer, label: string) => {
    const { api, ck } = token;
    api.C_FindObjectsInit(session, [
      { type: ck.CKA_CLASS!, value: ck.CKO_PRIVATE_KEY! },
      { type: ck.CKA_LABEL!, value: label },
    ]);
    const [h] = api.C_FindObjects(session, 1);
    api.C_FindObjectsFinal(session);
    return h!;
  };

  /** The token's bare answer r ‖ s for `d` with `label`'s key. */
  const rawSignature = (label: string, d: Hex) =>
    provider.token.withSession(async (s) => {
      const { api, ck } = provider.token;
      api.C_SignInit(s, { mechanism: ck.CKM_ECDSA! }, privateKeyOf(provider.token, s, label));
      return api.C_SignAsync(s, Buffer.from(d.slice(2), 'hex'), Buffer.alloc(72));
    });

  test('error: reading CKA_VALUE of a generated key is refused by the token; the key is sensitive, never extractable, generated on the token', async () => {
    await provider.createKey('svc_wallet_value');
    await provider.token.withSession((s) => {
      const { api, ck } = provider.token;
      const key = privateKeyOf(provider.token, s, 'svc_wallet_value');
      expect(() => api.C_GetAttributeValue(s, key, [{ type: ck.CKA_VALUE! }])).toThrow(/CKR_ATTRIBUTE_SENSITIVE/);
      const attrs = api.C_GetAttributeValue(s, key, [
        { type: ck.CKA_SENSITIVE! },
        { type: ck.CKA_EXTRACTABLE! },
        { type: ck.CKA_ALWAYS_SENSITIVE! },
        { type: ck.CKA_NEVER_EXTRACTABLE! },
        { type: ck.CKA_LOCAL! },
        { type: ck.CKA_TOKEN! },
        { type: ck.CKA_PRIVATE! },
        { type: ck.CKA_SIGN! },
        { type: ck.CKA_EC_PARAMS! },
        { type: ck.CKA_ID! },
      ]);
      const [sensitive, extractable, alwaysSensitive, neverExtractable, local, onToken, priv, sign, params, id] = attrs.map((a) => a.value as Buffer);
      expect([sensitive, alwaysSensitive, neverExtractable, local, onToken, priv, sign].map((b) => b![0])).toEqual([1, 1, 1, 1, 1, 1, 1]);
      expect(extractable![0]).toBe(0);
      expect(params!.toString('hex')).toBe('06052b8104000a');
      expect(id!.toString('utf8')).toBe('svc_wallet_value');
    });
    // what operators check with OpenSC's tool
    const listed = execFileSync(
      'pkcs11-tool',
      ['--module', SOFTHSM_MODULE, '--token-label', soft!.label, '--pin', soft!.pin, '--list-objects', '--type', 'privkey'],
      {
        env: { ...process.env, SOFTHSM2_CONF: soft!.env.SOFTHSM2_CONF },
      },
    ).toString();
    expect(listed).toMatch(/label:\s+svc_wallet_value[\s\S]*?Access:\s+sensitive, always sensitive, never extractable, local/);
  });

  test('behavior: the store holds the wallet id, the address and the key id: no key material', async () => {
    const address = await provider.createKey('svc_wallet_store');
    const rec = await store.walletKeys.get('svc_wallet_store');
    expect(rec).toEqual({ walletId: 'svc_wallet_store', address, provider: 'pkcs11', keyId: 'svc_wallet_store', createdAt: expect.any(String) });
  });

  test('behavior: a crafted high-s signature is normalised to low-s and still recovers to the address', async () => {
    const address = await provider.createKey('svc_wallet_highs');
    const d = digest(1);
    const raw = await rawSignature('svc_wallet_highs', d);
    const s = BigInt(`0x${raw.subarray(32).toString('hex')}`);
    const high = s > SECP256K1_N / 2n ? s : SECP256K1_N - s;
    const crafted = Buffer.concat([raw.subarray(0, 32), Buffer.from(high.toString(16).padStart(64, '0'), 'hex')]);
    const sig = await toEthSignature(d, crafted, address);
    expect(BigInt(sig.s)).toBe(SECP256K1_N - high);
    expect(await recoverAddress({ hash: d, signature: sig })).toBe(address);
  });

  test('error: a signature recovering to another address is refused, never returned', async () => {
    await provider.createKey('svc_wallet_mine');
    const other = await provider.createKey('svc_wallet_other');
    const d = digest(2);
    const raw = await rawSignature('svc_wallet_mine', d);
    await expect(toEthSignature(d, raw, other)).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringMatching(/does not recover/) });
    // a corrupted answer is refused too
    await expect(toEthSignature(d, raw.subarray(0, 63), other)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
  });

  test('behavior: sessions closed under the provider are opened again at the next signature; a token away is NETWORK_ERROR (transient) until it is back', async () => {
    const address = await provider.createKey('svc_wallet_sessions');
    provider.token.closeSessions();
    expect(await recoverAddress({ hash: digest(3), signature: await provider.signDigest('svc_wallet_sessions', digest(3)) })).toBe(address);
    provider.token.closeSessions({ hold: true });
    await expect(provider.signDigest('svc_wallet_sessions', digest(4))).rejects.toMatchObject({ code: 'NETWORK_ERROR', details: { service: 'keyProvider' } });
    await expect(provider.check()).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    provider.token.release();
    expect(await recoverAddress({ hash: digest(4), signature: await provider.signDigest('svc_wallet_sessions', digest(4)) })).toBe(address);
  });
});

run('key provider: pkcs11 start', () => {
  // With every token of this file closed: the library's login is per process, and a logged-in one takes any PIN.
  test('error: a wrong PIN, a missing token and a missing library stop the start, naming the variable', () => {
    const startError = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e;
      }
      throw new Error('opened');
    };
    const wrongPin = startError(() => open('000000'));
    expect(wrongPin).toBeInstanceOf(KeyProviderStartError);
    expect((wrongPin as Error).message).toMatch(/PKCS11_PIN: the token refused the PIN/);
    expect((startError(() => open(soft!.pin, 'no-such-token')) as Error).message).toMatch(/PKCS11_TOKEN_LABEL: no token labelled "no-such-token"/);
    expect((startError(() => openPkcs11Token({ module: '/nonexistent/libpkcs11.so', tokenLabel: 'x', pin: '1' })) as Error).message).toMatch(
      /PKCS11_MODULE: the PKCS#11 library \/nonexistent\/libpkcs11.so could not be loaded/,
    );
  });
});
