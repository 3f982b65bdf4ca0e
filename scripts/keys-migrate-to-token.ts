/**
 * `npm run keys:migrate-to-token [-- --delete-ciphertexts]`: moves every
 * wallet key of the local vault (MONGODB_URI, KEY_VAULT_MASTER_KEY and
 * KEY_VAULT_PREVIOUS_KEYS) into the PKCS#11 token of KEY_PROVIDER=pkcs11 and
 * the PKCS11_* variables, checks each address by a token signature, and
 * prints a progress bar and the counts. Run it again to resume; ciphertexts
 * are deleted only with --delete-ciphertexts and only when every key checked.
 * A key that failed stays on the local vault and is named; the exit code is 1.
 */
import { ConfigError, loadConfig } from '../src/config';
import { migrateToToken } from '../src/chain/keys/migrateToToken';
import { createPkcs11Provider } from '../src/chain/keys/pkcs11/pkcs11Provider';
import { openPkcs11Token } from '../src/chain/keys/pkcs11/pkcs11Token';
import { KeyProviderStartError } from '../src/chain/keys/startError';
import { createStore } from '../src/store/createStore';
import { readFileSync } from 'node:fs';

function bar(done: number, total: number): string {
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total}`;
}

async function main(): Promise<number> {
  const deleteCiphertexts = process.argv.includes('--delete-ciphertexts');
  const config = loadConfig();
  const k = config.keyProvider;
  if (k.kind !== 'pkcs11') throw new ConfigError('Invalid environment:\n  KEY_PROVIDER: must be pkcs11 (the token to migrate to)');
  if (!config.keyVaultMasterKey) throw new ConfigError('Invalid environment:\n  KEY_VAULT_MASTER_KEY: is required (it decrypts the keys to migrate)');
  if (!config.mongodbUri) throw new ConfigError('Invalid environment:\n  MONGODB_URI: is required (the database whose keys move)');
  const pin = k.pin ?? readFileSync(k.pinFile!, 'utf8').split(/\r?\n/)[0]!;
  const token = openPkcs11Token({ module: k.module, tokenLabel: k.tokenLabel, pin });
  const store = await createStore(config);
  const provider = createPkcs11Provider({ token, walletKeys: () => store.walletKeys });
  try {
    const report = await migrateToToken({
      walletKeys: store.walletKeys,
      masterKeys: [config.keyVaultMasterKey, ...config.keyVaultPreviousKeys],
      token,
      provider,
      deleteCiphertexts,
      onProgress: (done, total) => process.stderr.write(`\r${bar(done, total)}`),
    });
    process.stderr.write('\n');
    console.log(
      `wallet keys: ${report.total}; moved now ${report.migrated}; already in the token ${report.already}; failed ${report.failed.length}; ciphertexts deleted ${report.deleted}`,
    );
    for (const f of report.failed) console.log(`  left on the local vault: ${f.walletId}: ${f.reason}`);
    if (deleteCiphertexts && report.failed.length > 0) console.log('  no ciphertext deleted: some keys failed (fix them and run again)');
    if (!deleteCiphertexts && report.failed.length === 0) console.log('  every address checked; run again with --delete-ciphertexts to delete the ciphertexts');
    return report.failed.length > 0 ? 1 : 0;
  } finally {
    await provider.close();
    await store.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    const known = e instanceof ConfigError || e instanceof KeyProviderStartError;
    console.error(known ? (e as Error).message : `keys:migrate-to-token: ${(e as Error).message}`);
    process.exit(known ? 2 : 1);
  },
);
