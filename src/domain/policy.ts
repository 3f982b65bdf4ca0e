import type { ChainName, LendingProtocol } from './chains';
import type { IntentAction } from './intent';

/** What a spending policy allows; every rule is optional, and an absent rule allows everything it would govern. */
export interface PolicyRules {
  /** Intent actions allowed. */
  actions?: IntentAction[];
  /** Chains an intent may touch: where funds leave, pass and arrive. */
  chains?: ChainName[];
  /** Lending protocols an intent may supply to or withdraw from. */
  protocols?: LendingProtocol[];
  /** Most one intent may move, in USD (a decimal string, ≤ 2 decimals). */
  maxUsdPerIntent?: string;
  /** Most one wallet may move in any rolling 24 h, in USD. */
  maxUsdPerDay?: string;
}

export type PolicyScope = 'wallet' | 'account';

/** A spending policy (`svc_policy_…`): a wallet's own, or its account's one `scope: "account"` policy. */
export interface Policy {
  id: string;
  accountId: string;
  name: string;
  scope: PolicyScope;
  rules: PolicyRules;
  /** +1 on every update; intents record the version they were decided under. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The policy (and version) an intent was decided under. */
export interface PolicyRef {
  id: string;
  version: number;
}

export type PolicyRule = keyof PolicyRules;

/** Why a policy refuses: the rule, its limit, and what was asked. */
export interface PolicyRefusal {
  rule: PolicyRule;
  limit: unknown;
  requested: unknown;
}

/** Cents of a USD decimal string (≤ 2 decimals), exact. */
export function usdCents(usd: string): bigint {
  const [whole = '0', fraction = ''] = usd.split('.');
  return BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
}

/** Cents of a USD amount computed from a price (a float), rounded up: a limit is never passed by rounding. */
export const toCents = (usd: number): bigint => BigInt(Math.ceil(Math.round(usd * 1e6) / 1e4));

/** A cents amount as a USD decimal string. */
export const centsToUsd = (cents: bigint): string => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

/** What the request alone says: its action, the chains it names, the protocols it names (a rebalance's target and sources), and its USD value (cents). */
export interface IntentRequestFacts {
  action: IntentAction;
  chains: ChainName[];
  protocols?: string[];
  usdCents: bigint;
}

/**
 * The refusals decidable from the request, before anything is stored: the
 * action, the chains and protocols it names, and the per-intent cap (exactly at the limit
 * is allowed). The daily cap is decided by the store's reservation.
 */
export function refuseRequest(rules: PolicyRules, facts: IntentRequestFacts): PolicyRefusal | null {
  if (rules.actions && !rules.actions.includes(facts.action)) return { rule: 'actions', limit: rules.actions, requested: facts.action };
  const chain = rules.chains ? facts.chains.find((c) => !rules.chains!.includes(c)) : undefined;
  if (chain !== undefined) return { rule: 'chains', limit: rules.chains, requested: chain };
  const protocol = rules.protocols ? facts.protocols?.find((p) => !(rules.protocols as string[]).includes(p)) : undefined;
  if (protocol !== undefined) return { rule: 'protocols', limit: rules.protocols, requested: protocol };
  if (rules.maxUsdPerIntent !== undefined && facts.usdCents > usdCents(rules.maxUsdPerIntent)) {
    return { rule: 'maxUsdPerIntent', limit: rules.maxUsdPerIntent, requested: centsToUsd(facts.usdCents) };
  }
  return null;
}

/** One step as the executor is about to sign it. */
export interface StepFacts {
  action: IntentAction;
  chains: ChainName[];
  protocol?: string;
}

/** Whether a step may be signed under `rules` (the executor's check, defence in depth): the refusal, or null. */
export function refuseStep(rules: PolicyRules, step: StepFacts): PolicyRefusal | null {
  if (rules.actions && !rules.actions.includes(step.action)) return { rule: 'actions', limit: rules.actions, requested: step.action };
  const chain = rules.chains ? step.chains.find((c) => !rules.chains!.includes(c)) : undefined;
  if (chain !== undefined) return { rule: 'chains', limit: rules.chains, requested: chain };
  if (rules.protocols && step.protocol !== undefined && !(rules.protocols as string[]).includes(step.protocol)) {
    return { rule: 'protocols', limit: rules.protocols, requested: step.protocol };
  }
  return null;
}

/** Whether the planner may use `chain` (as a source, a hop or a destination). */
export const chainAllowed = (rules: PolicyRules | undefined, chain: ChainName): boolean => !rules?.chains || rules.chains.includes(chain);

/** Whether the planner may use `protocol`. */
export const protocolAllowed = (rules: PolicyRules | undefined, protocol: string): boolean =>
  !rules?.protocols || (rules.protocols as string[]).includes(protocol);
