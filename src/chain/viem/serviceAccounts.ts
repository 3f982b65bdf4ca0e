import type { LocalAccount } from 'viem';
import type { TxSigner } from '../../ports/chain';
import { localServiceAccount } from '../keys/localProvider';
import type { ServiceKeys } from './viemPortOptions';

/** The service's own signing accounts, made by the key provider; the gas tank also relays CCTP mints. */
export interface ServiceAccounts {
  gasTank: LocalAccount;
  faucet: LocalAccount;
}

/** Accounts over raw keys (tests, benches, the local provider's environment keys): the local provider builds them. */
export function serviceAccounts(keys: ServiceKeys): ServiceAccounts {
  return { gasTank: localServiceAccount(keys.gasTank), faucet: localServiceAccount(keys.faucet) };
}

/** The account that signs for `signer`: a wallet's own, or the service account it names. */
export function accountOf(accounts: ServiceAccounts, signer: TxSigner): LocalAccount {
  return signer === 'relayer' ? accounts.gasTank : signer === 'faucet' ? accounts.faucet : signer;
}
