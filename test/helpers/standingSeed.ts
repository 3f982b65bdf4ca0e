import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/ports/store';
import type { StandingDecision, StandingIntent } from '../../src/domain/standingIntent';

const hex = (n: number) => randomBytes(n).toString('hex');
const MIN = 60_000;

/** A decision of `s` at `sampleAt` that moved nothing (already in the best market): the plainest record a list can hold. */
export function skippedDecision(s: Pick<StandingIntent, 'id' | 'accountId' | 'walletId'>, sampleAt: string): StandingDecision {
  return {
    id: `svc_decision_${hex(16)}`,
    standingIntentId: s.id,
    accountId: s.accountId,
    walletId: s.walletId,
    sampleAt,
    decidedAt: sampleAt,
    trigger: 'rate_sample',
    outcome: 'skipped',
    reason: 'already_best',
    numbers: {
      target: null,
      sources: [],
      amount: '0',
      costs: { withdrawGasUsd: 0, bridgeFeeUsd: 0, bridgeGasUsd: 0, depositGasUsd: 0, totalUsd: 0 },
      gainUsd: 0,
      netGainUsd: 0,
      thresholdUsd: 1,
      horizonDays: 30,
    },
  };
}

/**
 * `count` paused standing intents of the account (each on a wallet id of its
 * own, which no read needs to exist), each with `decisions` skipped
 * decisions a minute apart, written straight into the store: a large account
 * in seconds, for the reads that list them.
 */
export async function seedStandingIntents(store: Store, accountId: string, count: number, decisions: number): Promise<StandingIntent[]> {
  const now = Math.floor(Date.now() / MIN) * MIN;
  const out: StandingIntent[] = [];
  for (let i = 0; i < count; i++) {
    const at = new Date(now - (count - i) * MIN).toISOString();
    const s: StandingIntent = {
      id: `svc_standing_${hex(16)}`,
      accountId,
      walletId: `svc_wallet_${hex(16)}`,
      asset: 'USDC',
      horizonDays: 30,
      minGainUsd: 1,
      maxMovesPerDay: 2,
      status: 'paused',
      createdAt: at,
      updatedAt: at,
      version: 1,
    };
    await store.standingIntents.insert(s);
    out.push(s);
    for (let d = 0; d < decisions; d++) {
      const decision = skippedDecision(s, new Date(now - d * MIN).toISOString());
      await store.standingDecisions.insertOnce(decision);
    }
  }
  return out;
}
