import type { DecisionNumbers, DecisionOutcome, SkipReason, StandingDecision, StandingIntent, StandingIntentStatus } from '../../domain/standingIntent';
import type { TokenAsset } from '../../domain/chains';

/** A standing intent as both front doors return it (the owning account is implied by the caller; absent fields are null). */
export interface StandingIntentView {
  id: string;
  walletId: string;
  asset: TokenAsset;
  amount: string | null;
  horizonDays: number;
  minGainUsd: number;
  maxMovesPerDay: number;
  status: StandingIntentStatus;
  createdAt: string;
  updatedAt: string;
  version: number;
  lastDecisionAt: string | null;
  lastIntentId: string | null;
}

export function toStandingView(s: StandingIntent): StandingIntentView {
  return {
    id: s.id,
    walletId: s.walletId,
    asset: s.asset,
    amount: s.amount ?? null,
    horizonDays: s.horizonDays,
    minGainUsd: s.minGainUsd,
    maxMovesPerDay: s.maxMovesPerDay,
    status: s.status,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    version: s.version,
    lastDecisionAt: s.lastDecisionAt ?? null,
    lastIntentId: s.lastIntentId ?? null,
  };
}

/** A decision as the front doors, the webhooks and the subscription carry it. */
export interface DecisionView {
  id: string;
  standingIntentId: string;
  walletId: string;
  sampleAt: string;
  decidedAt: string;
  trigger: StandingDecision['trigger'];
  outcome: DecisionOutcome;
  reason: SkipReason | null;
  rule: string | null;
  intentId: string | null;
  numbers: DecisionNumbers;
}

export function toDecisionView(d: StandingDecision): DecisionView {
  return {
    id: d.id,
    standingIntentId: d.standingIntentId,
    walletId: d.walletId,
    sampleAt: d.sampleAt,
    decidedAt: d.decidedAt,
    trigger: d.trigger,
    outcome: d.outcome,
    reason: d.reason ?? null,
    rule: d.rule ?? null,
    intentId: d.intentId ?? null,
    numbers: d.numbers,
  };
}
