import { randomBytes } from 'node:crypto';
import { createLocalProvider } from '../../src/chain/keys/localProvider';
import { SANDBOX_KEYS } from '../../src/chain/sandbox/accounts';
import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { describeKeyProviderContract } from './keyProvider.contract';

const masterKey = randomBytes(32);

describeKeyProviderContract('local', {
  makeStore: async () => createMemoryStore(),
  make: async (store) =>
    createLocalProvider({ masterKey, walletKeys: () => store.walletKeys, serviceKeys: { 'gas-tank': SANDBOX_KEYS.gasTank, faucet: SANDBOX_KEYS.faucet } }),
});
