import type { LocalAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { TxSigner } from '../../ports/chain';
import type { ServiceKeys } from './viemPortOptions';

/** The service's own signing accounts; the gas tank also relays CCTP mints. */
export interface ServiceAccounts {
  gasTank: LocalAccount;
  faucet: LocalAccount;
}

export function serviceAccounts(keys: ServiceKeys): ServiceAccounts {
  return { gasTank: privateKeyToAccount(keys.gasTank), faucet: privateKeyToAccount(keys.faucet) };
}

/** The account that signs for `signer`: a wallet's own, or the service account it names. */
export function accountOf(accounts: ServiceAccounts, signer: TxSigner): LocalAccount {
  return signer === 'relayer' ? accounts.gasTank : signer === 'faucet' ? accounts.faucet : signer;
}
