import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import type { WalletKeyRepo } from '../ports/store';
import type { WalletKeyRecord } from '../domain/types';
import type { KeyVault } from '../ports/keyVault';
import { ServiceError } from '../domain/errors/base';

function encrypt(masterKey: Buffer, plaintext: Buffer, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  cipher.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64');
}

function decrypt(masterKey: Buffer, blob: string, aad: string): Buffer {
  const raw = Buffer.from(blob, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', masterKey, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
}

/**
 * A master key's version id, stored beside each ciphertext: the first 8 bytes
 * of SHA-256 over a label and the key (it identifies the key, reveals nothing
 * usable about it).
 */
export function masterKeyVersion(masterKey: Buffer): string {
  return createHash('sha256').update('wallet-key-vault:v1:').update(masterKey).digest('hex').slice(0, 16);
}

/**
 * Builds the vault over the walletKeys repository. `masterKey` (32 bytes)
 * encrypts new keys; `previousKeys` still decrypt what they encrypted, so the
 * master key can be rotated: each ciphertext names the version of its key.
 */
export function createKeyVault(deps: {
  masterKey: Buffer;
  previousKeys?: Buffer[];
  keys: Pick<WalletKeyRepo, 'insert' | 'get' | 'delete'>;
  now?: () => Date;
}): KeyVault {
  const all = [deps.masterKey, ...(deps.previousKeys ?? [])];
  if (all.some((k) => k.length !== 32)) throw new Error('KEY_VAULT_MASTER_KEY must be 32 bytes');
  const now = deps.now ?? (() => new Date());
  const currentVersion = masterKeyVersion(deps.masterKey);
  const byVersion = new Map(all.map((k) => [masterKeyVersion(k), k]));
  return {
    async createKey(walletId) {
      const pk = generatePrivateKey();
      const address = privateKeyToAccount(pk).address;
      // The wallet id is bound as associated data: a ciphertext copied to another wallet fails to decrypt.
      const ciphertext = encrypt(deps.masterKey, Buffer.from(pk.slice(2), 'hex'), walletId);
      await deps.keys.insert({ walletId, address, ciphertext, keyVersion: currentVersion, createdAt: now().toISOString() });
      return address;
    },
    async discardKey(walletId) {
      await deps.keys.delete(walletId);
    },
    async signer(walletId) {
      const rec = await deps.keys.get(walletId);
      if (!rec) throw new ServiceError('INTERNAL_ERROR', 'No key for wallet', { details: { walletId } });
      if (rec.ciphertext === undefined) {
        throw new ServiceError('INTERNAL_ERROR', 'Wallet key is held by another key provider', { details: { walletId, provider: rec.provider } });
      }
      // Records written before key versions existed were encrypted under the current key.
      const masterKey = byVersion.get(rec.keyVersion ?? currentVersion);
      if (!masterKey) {
        throw new ServiceError('INTERNAL_ERROR', 'Wallet key was encrypted under a master key that is not configured', {
          details: { walletId, keyVersion: rec.keyVersion },
        });
      }
      let pk: Hex;
      try {
        pk = `0x${decrypt(masterKey, rec.ciphertext, walletId).toString('hex')}`;
      } catch {
        throw new ServiceError('INTERNAL_ERROR', 'Wallet key could not be decrypted', { details: { walletId } });
      }
      return privateKeyToAccount(pk);
    },
  };
}

/**
 * The private key of a local record, for one caller only: the migration to a
 * PKCS#11 token (src/chain/keys/migrateToToken.ts), which imports it there as
 * a sensitive, non-extractable object. Undefined when no configured master
 * key decrypts it.
 */
export function decryptForMigration(masterKeys: Buffer[], record: WalletKeyRecord): Hex | undefined {
  if (record.ciphertext === undefined) return undefined;
  for (const k of masterKeys) {
    if (record.keyVersion !== undefined && masterKeyVersion(k) !== record.keyVersion) continue;
    try {
      return `0x${decrypt(k, record.ciphertext, record.walletId).toString('hex')}`;
    } catch {
      // the next key
    }
  }
  return undefined;
}
