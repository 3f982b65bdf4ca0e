import { cctpFee } from './cctpFee';
import type { ChainName, LendingProtocol } from './chains';
import { fromUnits } from './money';
import {
  STANDING_DEFAULTS,
  type DecisionInput,
  type DecisionNumbers,
  type DecisionResult,
  type MarketApy,
  type MarketRef,
  type MoveSource,
} from './standingIntent';

/**
 * Which APYs a decision counts. `confirmed` is the decision's own: a market
 * moved into at the lower of its APY at this sample and the previous one, a
 * market left at the higher (a rate that jumps and falls back within one
 * sample window moves nothing; a raised rate moves funds at the second sample
 * after the raise). `current` counts every market at this sample's APY: a
 * move that pays only on it is `unconfirmed_rate`.
 */
type Rates = 'confirmed' | 'current';

/** Past this many sources a move is chosen among the ones gaining most (the choice tries every combination of its sources). */
const MAX_SOURCES = 12;
/**
 * A source gaining less than this over the horizon (USD) is dust: the interest
 * a move leaves behind (it withdraws the amount decided, and the position kept
 * accruing until the withdraw) is never worth a move, so it counts as already
 * where it belongs.
 */
export const DUST_GAIN_USD = 0.01;

/** Some of the wallet's funds the decision may move: a position (protocol set) or idle funds on a chain, up to the amount kept lent. */
interface Unit {
  chain: ChainName;
  protocol: LendingProtocol | null;
  amount: bigint;
  /** Its market (null: idle funds, or a position in a market without a rate at this sample). */
  market: MarketApy | null;
}

/** A move the decision weighs: a target and the units that would go there. */
interface Candidate {
  target: MarketApy;
  units: Unit[];
  numbers: DecisionNumbers;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
const sameMarket = (a: MarketRef, b: { chain: ChainName; protocol: LendingProtocol | null }) => a.chain === b.chain && a.protocol === b.protocol;
const previousOf = (m: MarketApy) => m.previousApy ?? m.apy;

/** The APY a market counts at when funds would move into it. */
const apyIn = (m: MarketApy, rates: Rates) => (rates === 'current' ? m.apy : Math.min(m.apy, previousOf(m)));
/** The APY funds count at where they are now: idle 0, a position its market's (the higher of two samples when confirmed). */
const apyOut = (u: Unit, rates: Rates) => (u.market === null ? 0 : rates === 'current' ? u.market.apy : Math.max(u.market.apy, previousOf(u.market)));

/**
 * Decides whether a standing intent moves its funds at one sample. Pure: the
 * live engine and the backtest call it with inputs built the same way
 * (app/standing/decisionInput.ts).
 *
 * The funds it manages: `rule.amount` of the wallet's asset (capped at what
 * is held) or all of it, counted per target market in this order: what the
 * target already holds, then the other positions (largest first), then idle
 * funds (on the target's chain first, then largest first). So with an amount
 * set, funds lent beyond it elsewhere are left alone, and idle funds are lent
 * once the positions do not make the amount up. A position in a market
 * without a rate at this sample counts towards the amount but never moves.
 *
 * A move is one target and some of those funds (its sources). Its gain is
 * each source's amount × (target APY − source APY) over the horizon, in USD;
 * its costs are a withdraw per position, per source chain off the target's a
 * CCTP bridge (the fast fee on what that chain sends, approve + burn there
 * and the mint on the target's chain, as the engine's net-return ranking
 * counts a bridge), and one deposit (approve + supply) on the target. It is
 * taken when its net gain exceeds max(minGainUsd, 10 % of its gain). Every
 * market is tried as the target and every combination of sources that gain
 * (the most gaining MAX_SOURCES), and the move that nets the most among those
 * that clear their threshold and the wallet's policy allows is made. Because
 * no other choice is made on the way, a move that clears at confirmed rates
 * also clears at any rates more favourable to it, which is what makes the
 * hysteresis hold (a spike moves nothing).
 *
 * A source is priced only where the sample is: a chain without a gas price
 * is neither withdrawn from, bridged from nor deposited on, a route without
 * a fee is not bridged, and only USDC bridges. USD figures are rounded to
 * millionths and the rule is applied to the rounded figures it records.
 *
 * When nothing moves, the reason, in this order: `no_funds` (nothing held,
 * or an amount of 0), `intent_in_flight` (funds in transit; the numbers are
 * what was seen), then, when a move clears: `move_limit` (maxMovesPerDay
 * reached in the last 24 h); when the best clearing move's target is refused
 * by the policy and no allowed move clears: `policy` with the refusing rule
 * (the numbers are the refused move's); when a move would clear at this
 * sample's APYs but not at confirmed ones: `unconfirmed_rate` (the numbers
 * are that move at confirmed rates); when no market counts more than where
 * the funds are (dust aside: a source gaining under DUST_GAIN_USD): `already_best`; otherwise `below_threshold` (the numbers are
 * the move that nets the most).
 */
export function decide(input: DecisionInput): DecisionResult {
  const holdings = mergedHoldings(input);
  const held = holdings.reduce((sum, h) => sum + h.amount, 0n);
  const keep = input.rule.amount === undefined || input.rule.amount > held ? held : input.rule.amount;
  if (keep <= 0n) return { move: false, reason: 'no_funds', numbers: emptyNumbers(input, null) };

  const confirmed = weigh(input, holdings, keep, 'confirmed');
  const chosen = choose(input, confirmed.clearing);

  if (input.intentInFlight) {
    return { move: false, reason: 'intent_in_flight', numbers: (chosen.move ?? confirmed.best)?.numbers ?? emptyNumbers(input, bestRate(input, 'confirmed')) };
  }
  if (chosen.move) {
    if (input.movesInLastDay >= input.rule.maxMovesPerDay) return { move: false, reason: 'move_limit', numbers: chosen.move.numbers };
    return { move: true, numbers: chosen.move.numbers };
  }
  if (chosen.refused) return { move: false, reason: 'policy', rule: chosen.refused.rule, numbers: chosen.refused.candidate.numbers };

  const atCurrent = choose(input, weigh(input, holdings, keep, 'current').clearing).move;
  if (atCurrent) {
    return { move: false, reason: 'unconfirmed_rate', numbers: price(input, atCurrent.target, atCurrent.units, 'confirmed').numbers };
  }
  if (!confirmed.anyGain) return { move: false, reason: 'already_best', numbers: emptyNumbers(input, bestRate(input, 'confirmed')) };
  return { move: false, reason: 'below_threshold', numbers: confirmed.best?.numbers ?? emptyNumbers(input, bestRate(input, 'confirmed')) };
}

/** The holdings of the asset with funds, one per market or chain (two entries of one are added up). */
function mergedHoldings(input: DecisionInput): Unit[] {
  const byKey = new Map<string, Unit>();
  for (const h of input.holdings) {
    if (h.amount <= 0n) continue;
    const key = `${h.chain}/${h.protocol ?? ''}`;
    const market = h.protocol === null ? null : (input.markets.find((m) => sameMarket(m, h)) ?? null);
    const unit = byKey.get(key);
    if (unit) unit.amount += h.amount;
    else byKey.set(key, { chain: h.chain, protocol: h.protocol, amount: h.amount, market });
  }
  return [...byKey.values()];
}

/** The funds managed when `target` is the target, in the order they count towards `keep` (see decide), capped at it. */
function managed(holdings: readonly Unit[], target: MarketRef, keep: bigint): Unit[] {
  const larger = (a: Unit, b: Unit) =>
    a.amount === b.amount ? `${a.chain}/${a.protocol}`.localeCompare(`${b.chain}/${b.protocol}`) : a.amount > b.amount ? -1 : 1;
  const there = holdings.filter((h) => sameMarket(target, h));
  const positions = holdings.filter((h) => h.protocol !== null && !sameMarket(target, h)).sort(larger);
  const idle = holdings.filter((h) => h.protocol === null).sort((a, b) => (a.chain === target.chain ? -1 : b.chain === target.chain ? 1 : larger(a, b)));
  const out: Unit[] = [];
  let left = keep;
  for (const h of [...there, ...positions, ...idle]) {
    if (left <= 0n) break;
    const amount = h.amount < left ? h.amount : left;
    out.push({ ...h, amount });
    left -= amount;
  }
  return out;
}

/** Whether `u` can be moved to `target` at all: its withdraw, bridge and the deposit can be priced, and the route exists. */
function movable(input: DecisionInput, u: Unit, target: MarketRef): boolean {
  const gas = input.costs.gasUsdPerUnit;
  if (gas[target.chain] === undefined) return false;
  if (u.protocol !== null && (u.market === null || gas[u.chain] === undefined)) return false;
  if (u.chain === target.chain) return true;
  return input.asset === 'USDC' && gas[u.chain] !== undefined && input.costs.routeFeeBps[u.chain]?.[target.chain] !== undefined;
}

/** USD of `units` smallest units of the asset. */
const usdOf = (input: DecisionInput, units: bigint) => Number(fromUnits(units, input.asset)) * input.assetUsd;

/** Extra yield over the horizon, USD, of `u` moved from where it is to a market counting `targetApy`. */
const gainOf = (input: DecisionInput, u: Unit, targetApy: number, rates: Rates) =>
  (usdOf(input, u.amount) * (targetApy - apyOut(u, rates)) * input.rule.horizonDays) / 100 / 365;

/** A move priced: its gain, its costs and its threshold (every figure rounded as recorded). */
function price(input: DecisionInput, target: MarketApy, units: readonly Unit[], rates: Rates): Candidate {
  const gas = input.costs.gasUsdPerUnit;
  const g = input.gasUnits;
  const targetApy = apyIn(target, rates);
  let gainUsd = 0;
  let withdrawGasUsd = 0;
  let moved = 0n;
  const bridged = new Map<ChainName, bigint>();
  const sources: MoveSource[] = [];
  for (const u of units) {
    gainUsd += gainOf(input, u, targetApy, rates);
    if (u.protocol !== null) withdrawGasUsd += g.withdraw * (gas[u.chain] ?? 0);
    if (u.chain !== target.chain) bridged.set(u.chain, (bridged.get(u.chain) ?? 0n) + u.amount);
    moved += u.amount;
    sources.push({ chain: u.chain, protocol: u.protocol, amount: fromUnits(u.amount, input.asset), apy: apyOut(u, rates) });
  }
  let bridgeFeeUsd = 0;
  let bridgeGasUsd = 0;
  for (const [chain, amount] of bridged) {
    bridgeFeeUsd += usdOf(input, cctpFee(amount, input.costs.routeFeeBps[chain]?.[target.chain] ?? 0));
    bridgeGasUsd += (g.approve + g.burn) * (gas[chain] ?? 0) + g.mint * (gas[target.chain] ?? 0);
  }
  const depositGasUsd = (g.approve + g.supply) * (gas[target.chain] ?? 0);
  const costs = {
    withdrawGasUsd: round6(withdrawGasUsd),
    bridgeFeeUsd: round6(bridgeFeeUsd),
    bridgeGasUsd: round6(bridgeGasUsd),
    depositGasUsd: round6(depositGasUsd),
    totalUsd: 0,
  };
  costs.totalUsd = round6(costs.withdrawGasUsd + costs.bridgeFeeUsd + costs.bridgeGasUsd + costs.depositGasUsd);
  const gain = round6(gainUsd);
  return {
    target,
    units: [...units],
    numbers: {
      target: { chain: target.chain, protocol: target.protocol, apy: targetApy },
      sources,
      amount: fromUnits(moved, input.asset),
      costs,
      gainUsd: gain,
      netGainUsd: round6(gain - costs.totalUsd),
      thresholdUsd: round6(Math.max(input.rule.minGainUsd, STANDING_DEFAULTS.minGainFraction * gain)),
      horizonDays: input.rule.horizonDays,
    },
  };
}

const clears = (c: Candidate) => c.numbers.netGainUsd > c.numbers.thresholdUsd;

/**
 * Every target and every combination of the sources that gain going there,
 * at `rates`: the moves that clear their threshold (best net first), the
 * move that nets the most whether it clears or not, and whether any source
 * would gain in any market at all.
 */
function weigh(
  input: DecisionInput,
  holdings: readonly Unit[],
  keep: bigint,
  rates: Rates,
): { clearing: Candidate[]; best: Candidate | null; anyGain: boolean } {
  const clearing: Candidate[] = [];
  let best: Candidate | null = null;
  let anyGain = false;
  for (const target of input.markets) {
    const targetApy = apyIn(target, rates);
    const sources = managed(holdings, target, keep).filter((u) => !sameMarket(target, u) && (u.protocol === null || u.market !== null));
    const gaining = sources.filter((u) => gainOf(input, u, targetApy, rates) > 0);
    if (gaining.some((u) => gainOf(input, u, targetApy, rates) >= DUST_GAIN_USD)) anyGain = true;
    const units = gaining
      .filter((u) => movable(input, u, target))
      .sort((a, b) => gainOf(input, b, targetApy, rates) - gainOf(input, a, targetApy, rates))
      .slice(0, MAX_SOURCES);
    for (let mask = 1; mask < 1 << units.length; mask++) {
      const candidate = price(
        input,
        target,
        units.filter((_, i) => mask & (1 << i)),
        rates,
      );
      if (best === null || candidate.numbers.netGainUsd > best.numbers.netGainUsd) best = candidate;
      if (clears(candidate)) clearing.push(candidate);
    }
  }
  clearing.sort((a, b) => b.numbers.netGainUsd - a.numbers.netGainUsd);
  return { clearing, best, anyGain };
}

/** The best clearing move the policy allows; else, when the best clearing move was refused, it and the refusing rule. */
function choose(input: DecisionInput, clearing: readonly Candidate[]): { move?: Candidate; refused?: { candidate: Candidate; rule: string } } {
  let refused: { candidate: Candidate; rule: string } | undefined;
  const verdicts = new Map<string, ReturnType<NonNullable<DecisionInput['allowed']>>>();
  for (const c of clearing) {
    if (!input.allowed) return { move: c };
    const amount = c.units.reduce((sum, u) => sum + u.amount, 0n);
    const key = `${c.target.chain}/${c.target.protocol}/${amount}`;
    let verdict = verdicts.get(key);
    if (!verdict) verdicts.set(key, (verdict = input.allowed({ chain: c.target.chain, protocol: c.target.protocol }, amount)));
    if (verdict.ok) return { move: c };
    refused ??= { candidate: c, rule: verdict.rule };
  }
  return refused ? { refused } : {};
}

/** The market counting the most at `rates` (the first listed among equals), for numbers of a decision that weighed no move. */
function bestRate(input: DecisionInput, rates: Rates): MarketApy | null {
  let best: MarketApy | null = null;
  for (const m of input.markets) if (best === null || apyIn(m, rates) > apyIn(best, rates)) best = m;
  return best;
}

/** The numbers of a decision that weighed no move: nothing moved, nothing gained, the rule's minimum to clear. */
function emptyNumbers(input: DecisionInput, target: MarketApy | null): DecisionNumbers {
  return {
    target: target === null ? null : { chain: target.chain, protocol: target.protocol, apy: apyIn(target, 'confirmed') },
    sources: [],
    amount: '0',
    costs: { withdrawGasUsd: 0, bridgeFeeUsd: 0, bridgeGasUsd: 0, depositGasUsd: 0, totalUsd: 0 },
    gainUsd: 0,
    netGainUsd: 0,
    thresholdUsd: input.rule.minGainUsd,
    horizonDays: input.rule.horizonDays,
  };
}
