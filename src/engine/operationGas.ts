import type { AccountModel } from '../domain/chains';
import { AUTHORIZATION_GAS, OPERATION_OVERHEAD_GAS } from '../ports/typicalGas';

/** What is known of the wallet on the chain when its calls are priced. */
export interface OperationGasOptions {
  /**
   * The wallet is delegated to the account contract there already (no
   * authorization rides in its operation). Absent: not known, priced as not
   * delegated, so a budget or a preview errs high by one authorization.
   */
  delegated?: boolean;
}

/**
 * The gas one chain's calls of an intent cost beyond the calls' own, as the
 * chain runs them: nothing on a `plain` chain (each call is its own
 * transaction; the gas tank's native top-up of the wallet is a transfer, not
 * the intent's gas); on a `7702` chain one user operation carries them all:
 * OPERATION_OVERHEAD_GAS (validation of the account and of the paymaster,
 * the EntryPoint's bookkeeping), plus AUTHORIZATION_GAS while the wallet is
 * not delegated there, and no native top-up (the paymaster pays).
 */
export function operationOverheadGas(model: AccountModel, o: OperationGasOptions = {}): bigint {
  if (model !== '7702') return 0n;
  return OPERATION_OVERHEAD_GAS + (o.delegated === true ? 0n : AUTHORIZATION_GAS);
}

/**
 * The gas of one chain's calls of an intent as they are paid for: their sum,
 * plus what running them as that chain's one operation adds
 * (operationOverheadGas). The one rule the gas budget, the preview and the
 * net-return ranking price a chain's calls with.
 */
export function chainCallsGas(model: AccountModel, callsGas: readonly bigint[], o: OperationGasOptions = {}): bigint {
  return callsGas.reduce((sum, g) => sum + g, 0n) + operationOverheadGas(model, o);
}
