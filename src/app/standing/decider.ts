import type { AppDeps } from '../deps';
import { ASSET_DECIMALS, STABLECOINS } from '../../domain/chains';
import { newTimeOrderedId } from '../../domain/ids';
import { sampleMinute, type RateSample } from '../../domain/rateHistory';
import type { Wallet } from '../../domain/types';
import type { DecisionInput, DecisionResult, SampleCosts, StandingDecision, StandingIntent } from '../../domain/standingIntent';
import { decide as decideMove } from '../../domain/standingDecision';
import { isServiceError } from '../../domain/errors/base';
import type { DecisionSettlement } from '../../ports/store';
import { readWalletHoldings } from '../caches';
import type { IntentSubmitter } from '../intents/createIntent';
import { createIntentOnce, type CreatedOnce } from '../intents/createIntentOnce';
import { systemActor, type Actor } from '../../domain/actor';
import type { CreateIntentCommand } from '../../domain/commands';
import { recordDecisionDeliveries } from '../webhooks/decisionDeliveries';
import { buildDecisionInput as buildInput, type DecisionSources } from './decisionInput';
import { hasOpenIntent, holdingsOf, previousSamples } from './decisionSources';
import { allowedByPolicy } from './standingPolicy';
import { toDecisionView } from './standingView';

/** What the rate sampler hands the decider: the sample minute, every market's APY at it, and the cost inputs recorded with it. */
export interface SampleEvent {
  at: string;
  samples: readonly RateSample[];
  costs: SampleCosts;
}

export type StandingDeciderDeps = Pick<AppDeps, 'store' | 'clock' | 'chains' | 'caches' | 'limits' | 'environment'> &
  Partial<Pick<AppDeps, 'logger' | 'webhooks' | 'decisionBus'>> & {
    engine: IntentSubmitter;
    /** The decision (default: the domain's; tests inject one). */
    decide?: (input: DecisionInput) => DecisionResult;
    /** How a decision's input is built (default: the one the backtest shares). */
    buildDecisionInput?: (sources: DecisionSources) => DecisionInput;
    /** How a move is submitted (default: the intents' own use-case, under the decision's key). */
    submitMove?: SubmitMove;
    /** Standing intents decided at once (each reads the wallet's balances on chain); default 4. */
    concurrency?: number;
  };

/** Submits a move's rebalance command as `actor`, once per idempotency key. */
export type SubmitMove = (deps: StandingDeciderDeps, actor: Actor, command: CreateIntentCommand, idempotencyKey: string) => Promise<Pick<CreatedOnce, 'body'>>;

/** The default SubmitMove: createIntent under the key, the command as the request it guards. */
const submitMoveOnce: SubmitMove = (deps, actor, command, key) => createIntentOnce(deps, actor, { key, request: command }, () => command);

export interface StandingDecider {
  /** Decides every active standing intent on a new sample; resolves once they are all decided. */
  onSample(sample: SampleEvent): Promise<void>;
  /** Decides the wallet's active standing intents now, on the last sample seen (nothing before the first sample). */
  onFundsArrived(walletId: string): Promise<void>;
}

/** One decision's context: the key minute, what triggered it, and the sample data it reads. */
interface DecisionContext {
  sampleAt: string;
  trigger: StandingDecision['trigger'];
  samples: readonly RateSample[];
  costs: SampleCosts;
  previous: (asset: StandingIntent['asset']) => Promise<RateSample[]>;
}

const DAY_MS = 86_400_000;
/** A recorded move with no intent after this long was left by an instance that stopped before submitting it (a submit takes seconds). */
const DANGLING_AFTER_MS = 2 * 60_000;
/** ... and is still submitted (under its own key: never twice) until this age; older, the rates it was decided on are too old to act on. */
const RESUBMIT_WITHIN_MS = 15 * 60_000;
/** How many of a standing intent's latest decisions are checked for such a move. */
const DANGLING_LOOKBACK = 5;

/** The Idempotency-Key of a decision's rebalance intent: a retry of the same decision names the same intent. */
export const moveIdempotencyKey = (decisionId: string) => `standing-${decisionId}`;

/** The policy rule (or the reason) a refused submit names. */
function refusalRule(e: unknown): string {
  if (!isServiceError(e)) return 'INTERNAL_ERROR';
  if (e.code === 'POLICY_VIOLATION' && typeof e.details.rule === 'string') return e.details.rule;
  if (e.code === 'GAS_BUDGET_EXCEEDED') return 'gasBudget';
  return e.code;
}

/** Runs `fn` over `items`, at most `limit` at once. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * The live decider of standing intents (docs/standing-intents.md). On each
 * rate sample, for every active standing intent: reads the wallet's holdings
 * of the asset, the markets at this sample and the previous one, the moves of
 * the last 24 h, whether an intent of the wallet is still running and what
 * its spending policy allows; builds the decision's input the one way the
 * backtest builds it, decides, and records the decision with insertOnce
 * keyed (standing intent, sample minute): of several instances deciding the
 * same minute, the one whose insert wins goes on, the others do nothing
 * more. A move is submitted as a `rebalance` intent through the intents'
 * use-case (its policy, reservations and gas budget), under an
 * Idempotency-Key derived from the decision id; a refused submit settles the
 * decision as `skipped` (reason `policy`, the rule). The decision then goes
 * out as webhooks and on the decision bus.
 */
export function createStandingDecider(deps: StandingDeciderDeps): StandingDecider {
  const decide = deps.decide ?? decideMove;
  const build = deps.buildDecisionInput ?? buildInput;
  const submit = deps.submitMove ?? submitMoveOnce;
  const concurrency = deps.concurrency ?? 4;
  const warn = (obj: Record<string, unknown>, msg: string) => deps.logger?.warn(obj, msg);
  let last: SampleEvent | null = null;
  let tail: Promise<void> = Promise.resolve();
  let queued: SampleEvent | null = null;

  /** Previous samples per asset, read once per sample however many standing intents ask. */
  function previousOf(at: string): DecisionContext['previous'] {
    const reads = new Map<string, Promise<RateSample[]>>();
    return (asset) => {
      let read = reads.get(asset);
      if (!read) reads.set(asset, (read = previousSamples(deps.store.rateHistory, asset, at)));
      return read;
    };
  }

  async function assetUsd(wallet: Wallet, asset: StandingIntent['asset']): Promise<number | null> {
    if (STABLECOINS.includes(asset)) return 1;
    const chain = wallet.chains[0];
    return chain === undefined ? null : deps.chains.priceUsd(asset, chain).catch(() => null);
  }

  async function sourcesOf(s: StandingIntent, wallet: Wallet, ctx: DecisionContext): Promise<DecisionSources> {
    const decimals = ASSET_DECIMALS[s.asset];
    const since = new Date(Date.parse(ctx.sampleAt) - DAY_MS).toISOString();
    const [holdings, previous, movesInLastDay, intentInFlight, usd] = await Promise.all([
      // from the chains, not the balance cache: another instance may have moved the funds since this one last read them
      readWalletHoldings(deps.chains, wallet),
      ctx.previous(s.asset),
      deps.store.standingDecisions.countRebalancedSince(s.id, since),
      hasOpenIntent(deps.store, wallet.id),
      assetUsd(wallet, s.asset),
    ]);
    const allowed = await allowedByPolicy(deps, wallet, usd, decimals);
    return {
      standing: s,
      holdings: holdingsOf(holdings, s.asset),
      samples: ctx.samples.filter((x) => x.asset === s.asset),
      previous,
      costs: ctx.costs,
      movesInLastDay,
      intentInFlight,
      ...(allowed && { allowed }),
    };
  }

  /** Submits the move of a recorded decision; what became of it. */
  async function submitMove(s: StandingIntent, decision: StandingDecision): Promise<DecisionSettlement> {
    // paused or deleted since the list was read: nothing moves
    const current = await deps.store.standingIntents.get(s.id);
    if (!current || current.status !== 'active') return { outcome: 'skipped', reason: 'paused' };
    const { target, sources, amount } = decision.numbers;
    try {
      const account = await deps.store.accounts.get(s.accountId);
      if (!account || !target) throw new Error(account ? 'a move without a target market' : 'the account of the standing intent is gone');
      // the service acts for the account, as the key that created the standing intent asked it to; the decision is the command (no body to parse)
      const command: CreateIntentCommand = {
        walletId: s.walletId,
        action: 'rebalance',
        asset: s.asset,
        amount,
        toChain: target.chain,
        toProtocol: target.protocol,
        sources: sources.map((x) => ({ chain: x.chain, protocol: x.protocol, amount: x.amount })),
      };
      const created = await submit(deps, systemActor(account), command, moveIdempotencyKey(decision.id));
      return { outcome: 'rebalanced', intentId: created.body.id };
    } catch (err) {
      if (!isServiceError(err)) warn({ err, standingIntentId: s.id, decisionId: decision.id }, 'standing intent: the move could not be submitted');
      return { outcome: 'skipped', reason: 'policy', rule: refusalRule(err) };
    }
  }

  /** The standing intent's record of its last decision (and intent), version-checked against pause and resume. */
  async function keepBooks(standingIntentId: string, sampleAt: string, intentId: string | undefined): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const cur = await deps.store.standingIntents.get(standingIntentId);
      if (!cur) return;
      const next: StandingIntent = { ...cur, lastDecisionAt: sampleAt, ...(intentId !== undefined && { lastIntentId: intentId }), version: cur.version + 1 };
      if (await deps.store.standingIntents.update(next, cur.version)) return;
    }
    warn({ standingIntentId }, 'standing intent: its last decision was not recorded on it (changed concurrently)');
  }

  async function announce(decision: StandingDecision): Promise<void> {
    try {
      if (await recordDecisionDeliveries(deps, decision)) deps.webhooks?.kick();
    } catch (err) {
      warn({ err, decisionId: decision.id }, 'standing intent: webhook deliveries not recorded for a decision');
    }
    deps.decisionBus?.publish({ ...toDecisionView(decision), accountId: decision.accountId });
  }

  /**
   * Settles a move an instance recorded but stopped before submitting (or
   * before settling): submitted now under the decision's own key (so a move
   * that was submitted after all answers its intent, never a second one), or,
   * once too old to act on, settled `interrupted`.
   */
  async function settleDangling(s: StandingIntent): Promise<void> {
    const now = deps.clock.now().getTime();
    for (const d of await deps.store.standingDecisions.list(s.id, { limit: DANGLING_LOOKBACK })) {
      if (d.outcome !== 'rebalanced' || d.intentId !== undefined) continue;
      const age = now - Date.parse(d.decidedAt);
      if (age < DANGLING_AFTER_MS) continue;
      const settlement: DecisionSettlement = age <= RESUBMIT_WITHIN_MS ? await submitMove(s, d) : { outcome: 'skipped', reason: 'interrupted' };
      // a submit still in progress elsewhere (its key held): left for that instance to settle
      if (settlement.outcome === 'skipped' && settlement.rule === 'IDEMPOTENCY_CONFLICT') continue;
      if (!(await deps.store.standingDecisions.settle(d.id, settlement))) continue;
      warn({ standingIntentId: s.id, decisionId: d.id, settlement }, 'standing intent: a move left unsubmitted by a stopped instance was settled');
      const { reason, rule, intentId, ...rest } = d;
      void reason;
      void rule;
      void intentId;
      await announce({ ...rest, ...settlement });
    }
  }

  async function decideOne(s: StandingIntent, ctx: DecisionContext): Promise<void> {
    const wallet = await deps.store.wallets.getById(s.walletId);
    if (!wallet) return;
    await settleDangling(s);
    const result = decide(build(await sourcesOf(s, wallet, ctx)));
    const now = deps.clock.now();
    let decision: StandingDecision = {
      id: newTimeOrderedId('decision', now.getTime()),
      standingIntentId: s.id,
      accountId: s.accountId,
      walletId: s.walletId,
      sampleAt: ctx.sampleAt,
      decidedAt: now.toISOString(),
      trigger: ctx.trigger,
      outcome: result.move ? 'rebalanced' : 'skipped',
      ...(!result.move && { reason: result.reason, ...(result.rule !== undefined && { rule: result.rule }) }),
      numbers: result.numbers,
    };
    // another instance decided this minute first: it does the rest
    if (!(await deps.store.standingDecisions.insertOnce(decision))) return;
    if (result.move) {
      const settlement = await submitMove(s, decision);
      // settled already: another instance took this move for one left dangling (never within DANGLING_AFTER_MS of it being decided)
      if (!(await deps.store.standingDecisions.settle(decision.id, settlement))) return;
      const { reason, rule, intentId, ...rest } = decision;
      void reason;
      void rule;
      void intentId;
      decision = { ...rest, ...settlement };
    }
    await keepBooks(s.id, ctx.sampleAt, decision.intentId);
    await announce(decision);
  }

  async function decideAll(standing: readonly StandingIntent[], ctx: DecisionContext): Promise<void> {
    await eachLimited(standing, concurrency, async (s) => {
      try {
        await decideOne(s, ctx);
      } catch (err) {
        warn({ err, standingIntentId: s.id, sampleAt: ctx.sampleAt }, 'standing intent: no decision at this sample');
      }
    });
  }

  async function runSample(sample: SampleEvent): Promise<void> {
    last = sample;
    try {
      const active = await deps.store.standingIntents.listActive();
      await decideAll(active, { sampleAt: sample.at, trigger: 'rate_sample', samples: sample.samples, costs: sample.costs, previous: previousOf(sample.at) });
    } catch (err) {
      warn({ err, sampleAt: sample.at }, 'standing intents: not decided at this sample');
    }
  }

  return {
    onSample(sample) {
      // A sample arriving while the last one is still being decided waits; a newer one replaces it (the latest rates are what counts).
      const waiting = queued !== null;
      queued = sample;
      if (waiting) return tail;
      tail = tail.then(() => {
        const next = queued!;
        queued = null;
        return runSample(next);
      });
      return tail;
    },
    async onFundsArrived(walletId) {
      const sample = last;
      if (!sample) return;
      try {
        const active = (await deps.store.standingIntents.listByWallet(walletId)).filter((s) => s.status === 'active');
        // keyed by the minute it happens in: one decision per standing intent per minute, whatever triggered it
        const ctx: DecisionContext = {
          sampleAt: sampleMinute(deps.clock.now()),
          trigger: 'funds_arrived',
          samples: sample.samples,
          costs: sample.costs,
          previous: previousOf(sample.at),
        };
        await decideAll(active, ctx);
      } catch (err) {
        warn({ err, walletId }, 'standing intents: not decided on arrived funds');
      }
    },
  };
}
