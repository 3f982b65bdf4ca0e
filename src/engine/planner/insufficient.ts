import type { TokenAsset } from '../../domain/chains';
import { insufficientFunds } from '../../domain/errors/intent';
import { fromUnits } from '../../domain/money';
import { perChainDecimals } from './format';
import type { ChainAmounts, PlanFailure } from './types';

/** Amounts for an INSUFFICIENT_FUNDS error, in smallest units. */
export interface InsufficientParams {
  required: bigint;
  available: bigint;
  perChain: ChainAmounts;
  asset: TokenAsset;
  /** Extra details (e.g. `chain`, `minBridgeAmount`), already JSON-safe. */
  extra?: Record<string, string>;
}

/** The INSUFFICIENT_FUNDS outcome with `required`, `available` and `perChain` as decimal strings. */
export function insufficient({ required, available, perChain, asset, extra = {} }: InsufficientParams): PlanFailure {
  return {
    ok: false,
    error: insufficientFunds({
      required: fromUnits(required, asset),
      available: fromUnits(available, asset),
      perChain: perChainDecimals(perChain, asset),
      asset,
      strategy: 'insufficient',
      ...extra,
    }),
  };
}
