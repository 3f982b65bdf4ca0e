import type { ChainName, LendingProtocol } from '../../../src/domain/chains';
import type { DecisionInput, Holding, MarketApy, MoveGasUnits, SampleCosts } from '../../../src/domain/standingIntent';

/** The sandbox's typical gas (src/ports/typicalGas.ts), as a decision takes it. */
export const GAS: MoveGasUnits = { approve: 55_500, supply: 226_100, withdraw: 168_900, burn: 85_200, mint: 164_100 };

/** Cheap gas on the L2s, dear on ethereum; CCTP fast fees between the three test networks. */
export const COSTS: SampleCosts = {
  gasUsdPerUnit: { 'base-sepolia': 1e-8, 'arbitrum-sepolia': 2e-8, 'ethereum-sepolia': 1e-6 },
  routeFeeBps: {
    'base-sepolia': { 'arbitrum-sepolia': 1.3, 'ethereum-sepolia': 1 },
    'arbitrum-sepolia': { 'base-sepolia': 1.3, 'ethereum-sepolia': 1 },
    'ethereum-sepolia': { 'base-sepolia': 1, 'arbitrum-sepolia': 1 },
  },
  assetUsd: { USDC: 1 },
};

/** USDC in smallest units. */
export const usdc = (n: number) => BigInt(Math.round(n * 1e6));

export const market = (chain: ChainName, protocol: LendingProtocol, apy: number, previousApy: number = apy): MarketApy => ({
  chain,
  protocol,
  apy,
  previousApy,
});
export const idle = (chain: ChainName, amount: number): Holding => ({ chain, protocol: null, amount: usdc(amount) });
export const lent = (chain: ChainName, protocol: LendingProtocol, amount: number): Holding => ({ chain, protocol, amount: usdc(amount) });

/** A decision's input with the defaults of a standing intent, USDC, and no move made or running. */
export function decisionInput(over: Partial<DecisionInput> & Pick<DecisionInput, 'holdings' | 'markets'>): DecisionInput {
  return {
    rule: { horizonDays: 30, minGainUsd: 1, maxMovesPerDay: 2 },
    asset: 'USDC',
    assetUsd: 1,
    decimals: 6,
    costs: COSTS,
    gasUnits: GAS,
    movesInLastDay: 0,
    intentInFlight: false,
    ...over,
  };
}

/** Rounded as decisions record USD. */
export const r6 = (n: number) => Math.round(n * 1e6) / 1e6;
