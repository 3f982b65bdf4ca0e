import { buildDecisionInput, MOVE_GAS_UNITS, UnpricedAssetError, type DecisionSources } from '../../../src/app/standing/decisionInput';
import { TYPICAL_GAS } from '../../../src/ports/typicalGas';
import type { RateSample } from '../../../src/domain/rateHistory';
import { doubleToken } from '../../helpers/chainDoubles';
import { COSTS, idle } from './decisionFixtures';

const AT = '2026-01-31T12:00:00.000Z';
const BEFORE = '2026-01-31T11:59:00.000Z';
const OTHER = '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d' as const;
const s = (over: Partial<RateSample>): RateSample => ({
  chain: 'base-sepolia',
  protocol: 'aave-v3',
  asset: 'USDC',
  token: doubleToken('USDC'),
  at: AT,
  apy: 5,
  ...over,
});

const sources = (over: Partial<DecisionSources> = {}): DecisionSources => ({
  standing: { asset: 'USDC', amount: '2500.5', horizonDays: 14, minGainUsd: 3, maxMovesPerDay: 1 },
  holdings: [idle('base-sepolia', 10)],
  samples: [],
  previous: [],
  costs: COSTS,
  movesInLastDay: 1,
  intentInFlight: true,
  ...over,
});

describe('buildDecisionInput', () => {
  test('behavior: the rule in smallest units, the asset decimals, the typical gas of each transaction, and what the live decider passes through', () => {
    const allowed = () => ({ ok: true as const });
    const input = buildDecisionInput(sources({ allowed }));
    expect(input).toMatchObject({
      rule: { horizonDays: 14, minGainUsd: 3, maxMovesPerDay: 1, amount: 2_500_500_000n },
      asset: 'USDC',
      assetUsd: 1,
      decimals: 6,
      holdings: [idle('base-sepolia', 10)],
      costs: COSTS,
      movesInLastDay: 1,
      intentInFlight: true,
      allowed,
    });
    expect(MOVE_GAS_UNITS).toEqual({
      approve: Number(TYPICAL_GAS.approve),
      supply: Number(TYPICAL_GAS.supply),
      withdraw: Number(TYPICAL_GAS.withdraw),
      burn: Number(TYPICAL_GAS.burn),
      mint: Number(TYPICAL_GAS.mint),
    });
    expect(input.gasUnits).toBe(MOVE_GAS_UNITS);
    const all = buildDecisionInput(sources({ standing: { asset: 'USDC', horizonDays: 30, minGainUsd: 1, maxMovesPerDay: 2 } }));
    expect('amount' in all.rule).toBe(false);
  });

  test('behavior: one market per chain and protocol of the asset, with the APY of the same token at the previous sample (a sample without a token matches any)', () => {
    const input = buildDecisionInput(
      sources({
        samples: [
          s({ apy: 5 }),
          s({ chain: 'arbitrum-sepolia', apy: 4, token: undefined }),
          s({ chain: 'arbitrum-sepolia', apy: 4.5 }),
          s({ protocol: 'compound-v3', apy: 3 }),
          s({ asset: 'USDT', apy: 9 }),
        ],
        previous: [
          s({ at: BEFORE, apy: 4.8, token: OTHER }),
          s({ at: BEFORE, apy: 4.9 }),
          s({ chain: 'arbitrum-sepolia', at: BEFORE, apy: 4.1, token: undefined }),
          s({ asset: 'USDT', protocol: 'compound-v3', at: BEFORE, apy: 1 }),
        ],
      }),
    );
    expect(input.markets).toEqual([
      { chain: 'base-sepolia', protocol: 'aave-v3', apy: 5, previousApy: 4.9 },
      { chain: 'arbitrum-sepolia', protocol: 'aave-v3', apy: 4.5, previousApy: 4.1 },
      { chain: 'base-sepolia', protocol: 'compound-v3', apy: 3 },
    ]);
  });

  test('behavior: the asset price comes with the costs (stablecoins 1 without it); a non-stablecoin without one cannot be weighed', () => {
    const weth = { asset: 'WETH' as const, horizonDays: 30, minGainUsd: 1, maxMovesPerDay: 2 };
    expect(buildDecisionInput(sources({ standing: weth, costs: { ...COSTS, assetUsd: { WETH: 3_100 } } })).assetUsd).toBe(3_100);
    expect(buildDecisionInput(sources({ costs: { ...COSTS, assetUsd: { USDC: 0.9995 } } })).assetUsd).toBe(0.9995);
    expect(buildDecisionInput(sources({ standing: { ...weth, asset: 'DAI' }, costs: { gasUsdPerUnit: {}, routeFeeBps: {} } })).assetUsd).toBe(1);
    expect(() => buildDecisionInput(sources({ standing: weth, costs: { gasUsdPerUnit: {}, routeFeeBps: {} } }))).toThrow(UnpricedAssetError);
  });
});
