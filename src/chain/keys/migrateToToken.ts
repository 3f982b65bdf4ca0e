import { keccak256, recoverAddress, toHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { WalletKeyRecord } from '../../domain/types';
import type { KeyProvider } from '../../ports/keyProvider';
import type { WalletKeyRepo } from '../../ports/store';
import { decryptForMigration } from '../keyVault';
import type { Handle } from './pkcs11/binding';
import { SECP256K1_OID_DER } from './pkcs11/pkcs11Provider';
import type { Pkcs11Token } from './pkcs11/pkcs11Token';

export interface MigrationReport {
  /** Local records seen (wallets already in the token are counted in `already`). */
  total: number;
  migrated: number;
  already: number;
  /** Keys left on the local vault, each named with why. */
  failed: { walletId: string; reason: string }[];
  /** Ciphertexts deleted (only with `deleteCiphertexts`, and only when nothing failed). */
  deleted: number;
}

export interface MigrationOptions {
  walletKeys: WalletKeyRepo;
  /** The master keys that decrypt the local records (current first). */
  masterKeys: Buffer[];
  token: Pkcs11Token;
  /** The pkcs11 provider over `token`: every imported key signs once through it, checked against the record's address. */
  provider: KeyProvider;
  deleteCiphertexts: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Test hook: stop (throw) after this many keys, as a migration cut off halfway. */
  stopAfter?: number;
}

const PAGE = 200;

/**
 * Moves every local wallet key into the token as a sensitive, non-extractable
 * private key labelled and identified by the wallet id, checks each one by a
 * signature that must recover to the wallet's address, and points the
 * wallet's record at the token (its ciphertext kept). Resumable and
 * idempotent: a key already in the token with the record's address is
 * counted, one with another address is a failure. Ciphertexts are deleted
 * only with `deleteCiphertexts` and only once every key has been checked.
 */
export async function migrateToToken(o: MigrationOptions): Promise<MigrationReport> {
  const records: WalletKeyRecord[] = [];
  for (let after: string | undefined; ;) {
    const page = await o.walletKeys.list(after, PAGE);
    records.push(...page);
    if (page.length < PAGE) break;
    after = page.at(-1)!.walletId;
  }
  const report: MigrationReport = { total: records.length, migrated: 0, already: 0, failed: [], deleted: 0 };
  const moved: WalletKeyRecord[] = [];
  let done = 0;
  for (const rec of records) {
    if (o.stopAfter !== undefined && done >= o.stopAfter) throw new Error(`migration stopped after ${done} keys (test hook)`);
    try {
      const outcome = await migrateOne(o, rec);
      if (outcome === 'migrated') report.migrated++;
      else report.already++;
      if (rec.ciphertext !== undefined) moved.push(rec);
    } catch (e) {
      report.failed.push({ walletId: rec.walletId, reason: (e as Error).message });
    }
    done++;
    o.onProgress?.(done, records.length);
  }
  if (o.deleteCiphertexts && report.failed.length === 0) {
    for (const rec of moved) {
      const { ciphertext: _c, keyVersion: _v, ...rest } = { ...rec, provider: 'pkcs11' as const, keyId: rec.walletId };
      await o.walletKeys.replace(rest);
      report.deleted++;
    }
  }
  return report;
}

async function migrateOne(o: MigrationOptions, rec: WalletKeyRecord): Promise<'migrated' | 'already'> {
  const address = rec.address as Address;
  const inToken = await o.provider.signer(rec.walletId).catch(() => undefined);
  let outcome: 'migrated' | 'already' = 'already';
  if (inToken && inToken.address.toLowerCase() !== address.toLowerCase())
    throw new Error(`the token holds another key under ${rec.walletId} (${inToken.address})`);
  if (!inToken) {
    const pk = decryptForMigration(o.masterKeys, rec);
    if (!pk) throw new Error('no configured master key decrypts it');
    const account = privateKeyToAccount(pk);
    if (account.address.toLowerCase() !== address.toLowerCase()) throw new Error(`the decrypted key's address ${account.address} is not the wallet's`);
    await importKey(o.token, rec.walletId, pk, account.publicKey);
    outcome = 'migrated';
  }
  // Checked by a signature of the token itself (the provider refuses one that does not recover to the key's address).
  const digest = keccak256(toHex(`migration check ${rec.walletId}`));
  const signature = await o.provider.signDigest(rec.walletId, digest);
  if ((await recoverAddress({ hash: digest, signature })).toLowerCase() !== address.toLowerCase())
    throw new Error('the token key does not sign for the wallet address');
  if (rec.provider !== 'pkcs11') await o.walletKeys.replace({ ...rec, provider: 'pkcs11', keyId: rec.walletId });
  return outcome;
}

/** Imports `pk` as a token private key (sensitive, never extractable from here on) beside its public key, replacing a pair left half-made. */
async function importKey(token: Pkcs11Token, label: string, pk: Hex, publicKey: Hex): Promise<void> {
  const { api, ck } = token;
  await token.withSession((s) => {
    for (const cls of [ck.CKO_PRIVATE_KEY!, ck.CKO_PUBLIC_KEY!]) {
      api.C_FindObjectsInit(s, [
        { type: ck.CKA_CLASS!, value: cls },
        { type: ck.CKA_LABEL!, value: label },
      ]);
      const stray: Handle[] = api.C_FindObjects(s, 10);
      api.C_FindObjectsFinal(s);
      for (const h of stray) api.C_DestroyObject(s, h);
    }
    const id = Buffer.from(label, 'utf8');
    const point = Buffer.from(publicKey.slice(2), 'hex');
    const common = [
      { type: ck.CKA_KEY_TYPE!, value: ck.CKK_EC! },
      { type: ck.CKA_TOKEN!, value: true },
      { type: ck.CKA_LABEL!, value: label },
      { type: ck.CKA_ID!, value: id },
      { type: ck.CKA_EC_PARAMS!, value: SECP256K1_OID_DER },
    ];
    api.C_CreateObject(s, [
      ...common,
      { type: ck.CKA_CLASS!, value: ck.CKO_PUBLIC_KEY! },
      { type: ck.CKA_EC_POINT!, value: Buffer.concat([Buffer.from([0x04, point.length]), point]) },
      { type: ck.CKA_VERIFY!, value: true },
    ]);
    api.C_CreateObject(s, [
      ...common,
      { type: ck.CKA_CLASS!, value: ck.CKO_PRIVATE_KEY! },
      { type: ck.CKA_PRIVATE!, value: true },
      { type: ck.CKA_SENSITIVE!, value: true },
      { type: ck.CKA_EXTRACTABLE!, value: false },
      { type: ck.CKA_SIGN!, value: true },
      { type: ck.CKA_VALUE!, value: Buffer.from(pk.slice(2), 'hex') },
    ]);
  });
}
