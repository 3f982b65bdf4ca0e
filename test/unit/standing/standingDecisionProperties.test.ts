import fc from 'fast-check';
import { decide } from '../../../src/domain/standingDecision';
import type { ChainName, LendingProtocol } from '../../../src/domain/chains';
import type { DecisionInput, Holding, MarketApy, SampleCosts } from '../../../src/domain/standingIntent';
import { GAS, decisionInput, r6 } from './decisionFixtures';

/**
 * Properties of the decision on generated markets, holdings, costs and rules:
 * it never moves below its threshold, a spike that falls back moves nothing,
 * a raised rate held moves once at the second sample, and no rolling day
 * holds more moves than the rule allows.
 */

const CHAINS: ChainName[] = ['base-sepolia', 'arbitrum-sepolia', 'ethereum-sepolia'];
const PROTOCOLS: LendingProtocol[] = ['aave-v3', 'compound-v3'];
const MARKETS = CHAINS.flatMap((chain) => PROTOCOLS.map((protocol) => ({ chain, protocol })));

const apy = fc.integer({ min: 0, max: 1_500 }).map((n) => n / 100);
/** APYs of a non-empty subset of the six markets, steady (previous = current). */
const steadyMarkets = fc
  .subarray(MARKETS, { minLength: 1 })
  .chain((ms) => fc.tuple(...ms.map((m) => apy.map((a): MarketApy => ({ ...m, apy: a, previousApy: a })))))
  .map((ms) => ms as MarketApy[]);

const amount = fc.integer({ min: 1, max: 2_000_000 }).map((n) => BigInt(n) * 1_000_000n);
const holding = fc.record({
  chain: fc.constantFrom(...CHAINS),
  protocol: fc.constantFrom<LendingProtocol | null>(null, ...PROTOCOLS),
  amount,
});

const costs: fc.Arbitrary<SampleCosts> = fc.record({
  gasUsdPerUnit: fc.record(
    Object.fromEntries(CHAINS.map((c) => [c, fc.double({ min: 1e-9, max: 2e-5, noNaN: true })])) as Record<ChainName, fc.Arbitrary<number>>,
    { requiredKeys: ['base-sepolia', 'arbitrum-sepolia'] },
  ),
  routeFeeBps: fc.constant(
    Object.fromEntries(
      CHAINS.map((from) => [from, Object.fromEntries(CHAINS.filter((to) => to !== from).map((to) => [to, 1.3]))]),
    ) as SampleCosts['routeFeeBps'],
  ),
});

const rule = fc.record(
  {
    horizonDays: fc.integer({ min: 1, max: 365 }),
    minGainUsd: fc.integer({ min: 0, max: 5_000 }).map((n) => n / 100),
    maxMovesPerDay: fc.integer({ min: 1, max: 4 }),
    amount,
  },
  { requiredKeys: ['horizonDays', 'minGainUsd', 'maxMovesPerDay'] },
);

const base = fc.record({ rule, costs, holdings: fc.array(holding, { maxLength: 4 }) });

/** The input at sample rates `markets`, previous APYs included. */
const at = (b: { rule: DecisionInput['rule']; costs: SampleCosts; holdings: Holding[] }, markets: MarketApy[]) =>
  decisionInput({ rule: b.rule, costs: b.costs, holdings: b.holdings, markets, gasUnits: GAS });

/** The rates after `next` replaces `prev` (each market's previous APY is its APY at `prev`). */
const step = (prev: readonly MarketApy[], next: readonly number[]): MarketApy[] => prev.map((m, i) => ({ ...m, previousApy: m.apy, apy: next[i]! }));

/** Holdings after a move: the sources' amounts leave, the moved amount arrives in the target. */
function applyMove(holdings: readonly Holding[], d: ReturnType<typeof decide>): Holding[] {
  const out = holdings.map((h) => ({ ...h }));
  const units = (s: string) => BigInt(Math.round(Number(s) * 1e6));
  for (const s of d.numbers.sources) {
    let left = units(s.amount);
    for (const h of out) {
      if (h.chain !== s.chain || h.protocol !== s.protocol || left === 0n) continue;
      const taken = h.amount < left ? h.amount : left;
      h.amount -= taken;
      left -= taken;
    }
  }
  const target = d.numbers.target!;
  out.push({ chain: target.chain, protocol: target.protocol, amount: units(d.numbers.amount) });
  return out.filter((h) => h.amount > 0n);
}

describe('decide: properties', () => {
  test('property: a move always clears its recorded threshold (net > max(minGainUsd, 10 % of the gain)), net = gain − costs, and never goes where the policy refuses', () => {
    fc.assert(
      fc.property(
        base,
        steadyMarkets,
        fc.array(apy, { minLength: 6, maxLength: 6 }),
        fc.func(fc.boolean()),
        fc.integer({ min: 0, max: 4 }),
        (b, markets, previous, allow, moves) => {
          const withPrevious = markets.map((m, i) => ({ ...m, previousApy: previous[i]! }));
          const input = {
            ...at(b, withPrevious),
            movesInLastDay: moves,
            allowed: (m: { chain: string; protocol: string }) =>
              allow(m.chain, m.protocol) ? { ok: true as const } : { ok: false as const, rule: 'protocols' },
          };
          const d = decide(input);
          const n = d.numbers;
          expect(n.netGainUsd).toBe(r6(n.gainUsd - n.costs.totalUsd));
          expect(n.thresholdUsd).toBe(r6(Math.max(b.rule.minGainUsd, 0.1 * n.gainUsd)));
          if (d.move) {
            expect(n.netGainUsd).toBeGreaterThan(n.thresholdUsd);
            expect(allow(n.target!.chain, n.target!.protocol)).toBe(true);
            expect(moves).toBeLessThan(b.rule.maxMovesPerDay);
          }
          if (n.netGainUsd <= n.thresholdUsd) expect(d.move).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });

  test('property: a spike that falls back (A, A + spike, A) never moves where A itself moves nothing', () => {
    fc.assert(
      fc.property(base, steadyMarkets, fc.array(fc.integer({ min: -1_500, max: 3_000 }), { minLength: 6, maxLength: 6 }), (b, steady, spikes) => {
        fc.pre(!decide(at(b, steady)).move);
        const spiked = step(
          steady,
          steady.map((m, i) => Math.max(0, m.apy + spikes[i]! / 100)),
        );
        const back = step(
          spiked,
          steady.map((m) => m.apy),
        );
        expect(decide(at(b, spiked)).move).toBe(false);
        expect(decide(at(b, back)).move).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  test('property: a raised rate held moves funds exactly once, at the second sample after the raise, when it pays (funds in one place)', () => {
    fc.assert(
      fc.property(base, holding, steadyMarkets, fc.nat(), fc.integer({ min: 1, max: 1_500 }), (b, only, steady, which, raise) => {
        const input = { ...b, holdings: [only] };
        fc.pre(!decide(at(input, steady)).move);
        const i = which % steady.length;
        const raised = steady.map((m, k) => (k === i ? m.apy + raise / 100 : m.apy));
        const first = step(steady, raised);
        const second = step(first, raised);
        const pays = decide(at(input, second)).move;
        expect(decide(at(input, first)).move).toBe(false);
        const d = decide(at(input, second));
        expect(d.move).toBe(pays);
        const after = d.move ? applyMove(input.holdings, d) : input.holdings;
        // the samples after: the same rates, funds where the move took them
        expect(decide({ ...at({ ...input, holdings: after }, second), movesInLastDay: d.move ? 1 : 0 }).move).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  test('property: through a run of samples, no rolling 24 h holds more moves than maxMovesPerDay', () => {
    fc.assert(
      fc.property(
        base,
        holding,
        steadyMarkets,
        fc.array(fc.tuple(fc.integer({ min: 1, max: 360 }), fc.array(apy, { minLength: 6, maxLength: 6 })), { minLength: 5, maxLength: 60 }),
        (b, only, steady, walk) => {
          let holdings: Holding[] = [only];
          let rates = steady;
          let now = 0;
          const moves: number[] = [];
          for (const [minutes, next] of walk) {
            now += minutes * 60_000;
            rates = step(rates, next);
            const movesInLastDay = moves.filter((t) => t > now - 86_400_000).length;
            const d = decide({ ...at({ ...b, holdings }, rates), movesInLastDay });
            if (d.move) {
              moves.push(now);
              holdings = applyMove(holdings, d);
            }
          }
          for (const t of moves) expect(moves.filter((u) => u > t - 86_400_000 && u <= t).length).toBeLessThanOrEqual(b.rule.maxMovesPerDay);
        },
      ),
      { numRuns: 200 },
    );
  });
});
