import { createDecipheriv, randomBytes } from 'node:crypto';
import { getAddress, verifyMessage, type Hex } from 'viem';
import { createKeyVault, masterKeyVersion } from '../../../src/chain/keyVault';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { ServiceError } from '../../../src/domain/errors/base';
import type { Store } from '../../../src/ports/store';

/** Decrypts a stored record the way the vault does (iv 12 | tag 16 | ciphertext, wallet id as AAD): the test's own window on the key. */
function decryptForTest(masterKey: Buffer, blob: string, walletId: string): Hex {
  const raw = Buffer.from(blob, 'base64');
  const d = createDecipheriv('aes-256-gcm', masterKey, raw.subarray(0, 12));
  d.setAAD(Buffer.from(walletId));
  d.setAuthTag(raw.subarray(12, 28));
  return `0x${Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('hex')}`;
}

/** Every way a 32-byte key could be written down. */
const spellings = (pk: Hex) => [pk.slice(2), pk.slice(2).toUpperCase(), Buffer.from(pk.slice(2), 'hex').toString('base64')];

describe('key vault', () => {
  let store: Store;
  const masterKey = randomBytes(32);

  beforeEach(() => {
    store = createMemoryStore();
  });

  test('behavior: createKey returns a checksummed address; the signer has it and its signatures recover to it', async () => {
    const vault = createKeyVault({ masterKey, keys: store.walletKeys });
    const address = await vault.createKey('svc_wallet_a');
    expect(getAddress(address)).toBe(address);
    const signer = await vault.signer('svc_wallet_a');
    expect(signer.address).toBe(address);
    const signature = await signer.signMessage({ message: 'hello' });
    expect(await verifyMessage({ address, message: 'hello', signature })).toBe(true);
    expect((await store.walletKeys.get('svc_wallet_a'))?.address).toBe(address);
  });

  test('behavior: each wallet gets its own key; a vault with the same master key signs after a restart', async () => {
    const vault = createKeyVault({ masterKey, keys: store.walletKeys });
    const a = await vault.createKey('svc_wallet_a');
    const b = await vault.createKey('svc_wallet_b');
    expect(a).not.toBe(b);
    const restarted = createKeyVault({ masterKey: Buffer.from(masterKey), keys: store.walletKeys });
    expect((await restarted.signer('svc_wallet_b')).address).toBe(b);
  });

  test('behavior: rotation: each record names its master key version; after a rotation old keys still sign (previous keys), new ones use the new key', async () => {
    const vault = createKeyVault({ masterKey, keys: store.walletKeys });
    const old = await vault.createKey('svc_wallet_old');
    expect((await store.walletKeys.get('svc_wallet_old'))?.keyVersion).toBe(masterKeyVersion(masterKey));
    const next = randomBytes(32);
    const rotated = createKeyVault({ masterKey: next, previousKeys: [masterKey], keys: store.walletKeys });
    expect((await rotated.signer('svc_wallet_old')).address).toBe(old);
    const fresh = await rotated.createKey('svc_wallet_new');
    expect((await store.walletKeys.get('svc_wallet_new'))?.keyVersion).toBe(masterKeyVersion(next));
    expect((await rotated.signer('svc_wallet_new')).address).toBe(fresh);
    // Without the previous key the old record names a version that is not configured: a clear error, no key material.
    const forgot = createKeyVault({ masterKey: next, keys: store.walletKeys });
    await expect(forgot.signer('svc_wallet_old')).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringMatching(/not configured/) });
  });

  test("behavior: the private key never appears in the stored record, the signer's JSON or thrown errors", async () => {
    const vault = createKeyVault({ masterKey, keys: store.walletKeys });
    const address = await vault.createKey('svc_wallet_secret');
    const record = await store.walletKeys.get('svc_wallet_secret');
    const pk = decryptForTest(masterKey, record!.ciphertext!, 'svc_wallet_secret');
    expect(pk).toMatch(/^0x[0-9a-f]{64}$/);
    const stored = JSON.stringify(record);
    const signerJson = JSON.stringify(await vault.signer('svc_wallet_secret'));
    for (const s of spellings(pk)) {
      expect(stored).not.toContain(s);
      expect(signerJson).not.toContain(s);
    }
    expect(signerJson).toContain(address);

    // A tampered record: the error says what failed, never with key material.
    const raw = Buffer.from(record!.ciphertext!, 'base64');
    raw[raw.length - 1]! ^= 0x01;
    await store.walletKeys.insert({ ...record!, walletId: 'svc_wallet_tampered', ciphertext: raw.toString('base64') });
    const err = await vault.signer('svc_wallet_tampered').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    const shown = JSON.stringify({
      message: (err as ServiceError).message,
      details: (err as ServiceError).details,
      stack: (err as Error).stack,
      cause: String((err as Error).cause),
    });
    for (const s of spellings(pk)) expect(shown).not.toContain(s);
  });

  test('error: a tampered ciphertext fails to decrypt (INTERNAL_ERROR, masked)', async () => {
    const vault = createKeyVault({ masterKey, keys: store.walletKeys });
    await vault.createKey('svc_wallet_t');
    const rec = (await store.walletKeys.get('svc_wallet_t'))!;
    const raw = Buffer.from(rec.ciphertext!, 'base64');
    raw[30]! ^= 0x80;
    const tamperedStore = createMemoryStore();
    await tamperedStore.walletKeys.insert({ ...rec, ciphertext: raw.toString('base64') });
    const tampered = createKeyVault({ masterKey, keys: tamperedStore.walletKeys });
    await expect(tampered.signer('svc_wallet_t')).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
      message: 'Wallet key could not be decrypted',
      expose: false,
    });
  });

  test('error: a ciphertext copied to another wallet id fails (the wallet id is bound as associated data)', async () => {
    const vault = createKeyVault({ masterKey, keys: store.walletKeys });
    await vault.createKey('svc_wallet_src');
    const rec = (await store.walletKeys.get('svc_wallet_src'))!;
    await store.walletKeys.insert({ ...rec, walletId: 'svc_wallet_dst' });
    await expect(vault.signer('svc_wallet_dst')).rejects.toMatchObject({ code: 'INTERNAL_ERROR', details: { walletId: 'svc_wallet_dst' } });
  });

  test('error: another master key cannot decrypt', async () => {
    await createKeyVault({ masterKey, keys: store.walletKeys }).createKey('svc_wallet_m');
    const other = createKeyVault({ masterKey: randomBytes(32), keys: store.walletKeys });
    await expect(other.signer('svc_wallet_m')).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
  });

  test('error: an unknown wallet has no signer', async () => {
    const vault = createKeyVault({ masterKey, keys: store.walletKeys });
    await expect(vault.signer('svc_wallet_none')).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: 'No key for wallet' });
  });

  test('error: a master key that is not 32 bytes is refused', () => {
    expect(() => createKeyVault({ masterKey: randomBytes(16), keys: store.walletKeys })).toThrow('32 bytes');
  });

  test('error: a second key for the same wallet id is refused and the first stays usable', async () => {
    const vault = createKeyVault({ masterKey, keys: store.walletKeys });
    const first = await vault.createKey('svc_wallet_once');
    await expect(vault.createKey('svc_wallet_once')).rejects.toThrow();
    expect((await vault.signer('svc_wallet_once')).address).toBe(first);
  });
});
