import type { RateSample } from '../../src/domain/rateHistory';
import type { SampleCosts } from '../../src/domain/standingIntent';
import type { RateHistoryRepo } from '../../src/ports/store';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The sandbox's USDC markets, as the sampler records them. */
export const SEED_MARKETS = [
  { chain: 'arbitrum-sepolia', protocol: 'aave-v3' },
  { chain: 'base-sepolia', protocol: 'aave-v3' },
  { chain: 'ethereum-sepolia', protocol: 'aave-v3' },
  { chain: 'ethereum-sepolia', protocol: 'compound-v3' },
] as const;

/** Cheap gas on the L2s, dear on ethereum; CCTP fast fees between the three test networks. */
export const SEED_COSTS: SampleCosts = {
  gasUsdPerUnit: { 'base-sepolia': 1e-8, 'arbitrum-sepolia': 2e-8, 'ethereum-sepolia': 1e-6 },
  routeFeeBps: {
    'base-sepolia': { 'arbitrum-sepolia': 1.3, 'ethereum-sepolia': 1 },
    'arbitrum-sepolia': { 'base-sepolia': 1.3, 'ethereum-sepolia': 1 },
    'ethereum-sepolia': { 'base-sepolia': 1, 'arbitrum-sepolia': 1 },
  },
  assetUsd: { USDC: 1 },
};

/**
 * `days` of USDC samples of SEED_MARKETS every minute up to `endMs` (a whole
 * minute), with the costs of every minute, as the rate sampler would have
 * recorded them: APYs that drift on slow waves, each market on its own, so
 * the lead changes a few times a day and a replay decides on real moves.
 * Answers the window [from, to) they fill.
 */
export async function seedRateHistory(
  history: Pick<RateHistoryRepo, 'record' | 'recordCosts'>,
  endMs: number,
  days: number,
): Promise<{ from: string; to: string; minutes: number }> {
  const fromMs = endMs - days * DAY_MS;
  const minutes = days * 1440;
  const DAY_BATCH = 1440;
  for (let first = 0; first < minutes; first += DAY_BATCH) {
    const samples: RateSample[] = [];
    for (let i = first; i < Math.min(first + DAY_BATCH, minutes); i++) {
      const at = new Date(fromMs + i * MINUTE_MS).toISOString();
      SEED_MARKETS.forEach((m, k) => {
        const apy = 4 + 1.5 * Math.sin((i / 1440) * Math.PI * (1 + k * 0.37) + k) + 0.2 * Math.sin(i / 97 + k);
        samples.push({ ...m, asset: 'USDC', at, apy: Math.round(apy * 100) / 100 });
      });
      await history.recordCosts(at, SEED_COSTS);
    }
    await history.record(samples);
  }
  return { from: new Date(fromMs).toISOString(), to: new Date(endMs).toISOString(), minutes };
}
