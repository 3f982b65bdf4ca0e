/**
 * `npm run keys:create-service [-- gas-tank faucet settler]`: creates the
 * service's keys in the configured key provider's token (KEY_PROVIDER=pkcs11
 * and the PKCS11_* variables), those missing only, and prints each label
 * with its address to fund. With KEY_PROVIDER=local it prints the addresses
 * of the keys configured in the environment.
 */
import { ConfigError, loadConfig } from '../src/config';
import { serviceKeyProvider } from './serviceKeyProvider';
import { KeyProviderStartError } from '../src/chain/keys/startError';
import { SERVICE_KEY_LABELS, type ServiceKeyLabel } from '../src/ports/keyProvider';

async function main(): Promise<void> {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((l) => !(SERVICE_KEY_LABELS as readonly string[]).includes(l));
  if (unknown.length > 0) {
    console.error(`unknown service key label: ${unknown.join(', ')} (one of ${SERVICE_KEY_LABELS.join(', ')})`);
    process.exit(2);
  }
  const labels = (asked.length > 0 ? asked : SERVICE_KEY_LABELS) as ServiceKeyLabel[];
  const config = loadConfig();
  const provider = serviceKeyProvider(config);
  try {
    for (const label of labels) {
      const account = await provider.serviceSigner(label, { create: provider.kind === 'pkcs11' }).catch((e: unknown) => {
        if (provider.kind === 'local') return undefined;
        throw e;
      });
      console.log(`${label}\t${account?.address ?? '(not configured in the environment)'}`);
    }
  } finally {
    await provider.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof ConfigError || e instanceof KeyProviderStartError ? e.message : `keys:create-service: ${(e as Error).message}`);
  process.exit(e instanceof ConfigError || e instanceof KeyProviderStartError ? 2 : 1);
});
