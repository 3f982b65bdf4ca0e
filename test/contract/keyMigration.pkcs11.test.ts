import { randomBytes } from 'node:crypto';
import { keccak256, recoverAddress, toHex, type Address } from 'viem';
import { createLocalProvider } from '../../src/chain/keys/localProvider';
import { migrateToToken } from '../../src/chain/keys/migrateToToken';
import { createPkcs11Provider } from '../../src/chain/keys/pkcs11/pkcs11Provider';
import { openPkcs11Token } from '../../src/chain/keys/pkcs11/pkcs11Token';
import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { createSoftToken, softhsmMissing, SOFTHSM_MODULE } from '../helpers/softhsm';

/** The local vault -> token migration (src/chain/keys/migrateToToken.ts) on a SoftHSM2 token of its own. */
const missing = softhsmMissing();
if (missing) console.warn(`keyMigration.pkcs11: skipped: ${missing}`);
const run = missing ? describe.skip : describe;

run('migration from the local vault to a PKCS#11 token', () => {
  test('behavior: 50 local wallets migrate (cut off halfway, then resumed), sign from the token from their own addresses; ciphertexts go only with the flag, after every check', async () => {
    const soft = createSoftToken();
    const store = createMemoryStore();
    const masterKey = randomBytes(32);
    const local = createLocalProvider({ masterKey, walletKeys: () => store.walletKeys, serviceKeys: {} });
    const token = openPkcs11Token({ module: SOFTHSM_MODULE, tokenLabel: soft.label, pin: soft.pin });
    const provider = createPkcs11Provider({ token, walletKeys: () => store.walletKeys });
    try {
      const ids = Array.from({ length: 50 }, (_, i) => `svc_wallet_mig${String(i).padStart(2, '0')}`);
      const addresses = new Map<string, Address>();
      for (const id of ids) addresses.set(id, await local.createKey(id));
      const base = { walletKeys: store.walletKeys, masterKeys: [masterKey], token, provider };

      await expect(migrateToToken({ ...base, deleteCiphertexts: true, stopAfter: 20 })).rejects.toThrow(/stopped after 20/);
      const progress: number[] = [];
      const report = await migrateToToken({ ...base, deleteCiphertexts: false, onProgress: (done) => progress.push(done) });
      expect(report).toEqual({ total: 50, migrated: 30, already: 20, failed: [], deleted: 0 });
      expect(progress.at(-1)).toBe(50);

      for (const id of ids) {
        const account = await provider.signer(id);
        expect(account.address).toBe(addresses.get(id));
        const d = keccak256(toHex(id));
        expect(await recoverAddress({ hash: d, signature: await account.sign!({ hash: d }) })).toBe(addresses.get(id));
        const rec = await store.walletKeys.get(id);
        expect(rec).toMatchObject({ provider: 'pkcs11', keyId: id, ciphertext: expect.any(String) });
      }

      // again: nothing to move, the ciphertexts deleted now that every address checked
      const again = await migrateToToken({ ...base, deleteCiphertexts: true });
      expect(again).toEqual({ total: 50, migrated: 0, already: 50, failed: [], deleted: 50 });
      for (const id of ids) expect(Object.keys((await store.walletKeys.get(id))!).sort()).toEqual(['address', 'createdAt', 'keyId', 'provider', 'walletId']);
    } finally {
      await provider.close();
      soft.remove();
    }
  }, 120_000);

  test('error: a key that fails is named and left on the local vault, and no ciphertext is deleted', async () => {
    const soft = createSoftToken();
    const store = createMemoryStore();
    const masterKey = randomBytes(32);
    const local = createLocalProvider({ masterKey, walletKeys: () => store.walletKeys, serviceKeys: {} });
    const token = openPkcs11Token({ module: SOFTHSM_MODULE, tokenLabel: soft.label, pin: soft.pin });
    const provider = createPkcs11Provider({ token, walletKeys: () => store.walletKeys });
    try {
      await local.createKey('svc_wallet_good');
      await local.createKey('svc_wallet_bad');
      const bad = (await store.walletKeys.get('svc_wallet_bad'))!;
      await store.walletKeys.replace({ ...bad, ciphertext: Buffer.alloc(60).toString('base64') });
      const report = await migrateToToken({ walletKeys: store.walletKeys, masterKeys: [masterKey], token, provider, deleteCiphertexts: true });
      expect(report).toEqual({
        total: 2,
        migrated: 1,
        already: 0,
        failed: [{ walletId: 'svc_wallet_bad', reason: expect.stringMatching(/decrypts/) }],
        deleted: 0,
      });
      expect(await store.walletKeys.get('svc_wallet_bad')).toEqual({ ...bad, ciphertext: Buffer.alloc(60).toString('base64') });
      expect((await store.walletKeys.get('svc_wallet_good'))!.ciphertext).toEqual(expect.any(String));
    } finally {
      await provider.close();
      soft.remove();
    }
  }, 60_000);
});
