import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { withIdempotency, type Replayable } from '../idempotency';
import { assertChainsUsable, type NamedChain } from '../chainAccess';
import { estimateIntentGasWei, reserveGasBudget } from '../budgets/gasBudget';
import { getWalletById } from '../wallets/getWallet';
import { invalidChain } from '../../domain/errors/chain';
import type { ServiceError } from '../../domain/errors/base';
import { ID_PREFIX, newId } from '../../domain/ids';
import { DuplicateError } from '../../ports/store';
import { DEFAULT_BRIDGE_SPEED, type Intent } from '../../domain/intent';
import type { LendOptimization } from '../../domain/optimize';
import type { AskedOfWallet } from '../../engine/planning';
import { INTENT_CHAIN_FIELDS, parseCreateIntent, type CreateIntentParams } from '../../domain/schemas/intent';
import type { Wallet } from '../../domain/types';
import { toIntentView, type IntentView } from './intentView';
import { actorOf, recordAudit } from '../audit/recordAudit';
import { decideIntent, requestSourceChains } from '../policies/decideIntent';

/** The engine as use-cases see it: it takes a persisted pending intent and runs it in the background. */
export interface IntentSubmitter {
  submit(intent: Intent): Promise<void>;
}

/** The use-case deps plus the engine that runs the intent. */
export type SubmitIntentDeps = Pick<AppDeps, 'store' | 'clock' | 'limits' | 'environment' | 'logger' | 'chains'> & { engine: IntentSubmitter };
/** 201 with the intent view; `replayed` when an Idempotency-Key answered from the first request. */
export type SubmitIntentResult = Replayable<IntentView>;
/** INVALID_REQUEST, INVALID_CHAIN, PLAN_RESTRICTED, WALLET_NOT_FOUND, IDEMPOTENCY_CONFLICT, GAS_BUDGET_EXCEEDED, POLICY_VIOLATION, POLICY_NOT_FOUND. */
export type SubmitIntentError = ServiceError;

/** The chains a request names, with the field naming each (a rebalance's sources as `sources.N.chain`). */
export function namedChains(params: CreateIntentParams): NamedChain[] {
  const fields = INTENT_CHAIN_FIELDS.flatMap((field): NamedChain[] => {
    const chain = params[field];
    return chain === undefined ? [] : [{ field, chain }];
  });
  return fields.concat((params.sources ?? []).map((s, i) => ({ field: `sources.${i}.chain`, chain: s.chain })));
}

/** Tron wallets have no supported network yet; EVM wallets only act on their own chains. */
export function checkWalletChains(wallet: Wallet, params: CreateIntentParams): void {
  if (wallet.chainType === 'tron') {
    throw invalidChain('tron', { walletId: wallet.id, chainType: 'tron', reason: 'intents are not supported on Tron wallets yet' });
  }
  for (const { field, chain } of namedChains(params)) {
    if (!wallet.chains.includes(chain)) throw invalidChain(chain, { field, walletChains: wallet.chains });
  }
}

/**
 * What the request asks, as its intent records it: the fields the engine
 * plans the intent by, and a preview plans the same request by (its bridges
 * fast unless it asked for standard; a withdraw bridges nothing; a
 * rebalance's sources as they were asked, amounts normalised).
 */
export function askedOf(params: CreateIntentParams): Omit<AskedOfWallet, 'walletId' | 'policy'> {
  return {
    action: params.action,
    requestedAmount: params.amount,
    asset: params.asset,
    ...(params.chain !== undefined && { chain: params.chain }),
    ...(params.fromChain !== undefined && { fromChain: params.fromChain }),
    ...(params.toChain !== undefined && { toChain: params.toChain }),
    ...(params.toProtocol !== undefined && { toProtocol: params.toProtocol }),
    ...(params.sources !== undefined && { sources: params.sources.map((s) => ({ chain: s.chain, protocol: s.protocol, amount: s.amount })) }),
    ...(params.optimize !== undefined && { optimize: params.optimize }),
    ...(params.horizonDays !== undefined && { horizonDays: params.horizonDays }),
    ...(params.action !== 'withdraw' && { speed: params.speed ?? DEFAULT_BRIDGE_SPEED }),
  };
}

/** What an intent.created event records: what was asked (no wallet key, no transaction). */
function intentCreatedDetails(intent: Intent): Record<string, unknown> {
  return {
    action: intent.action,
    amount: intent.requestedAmount,
    asset: intent.asset,
    ...(intent.chain !== undefined && { chain: intent.chain }),
    ...(intent.fromChain !== undefined && { fromChain: intent.fromChain }),
    ...(intent.toChain !== undefined && { toChain: intent.toChain }),
    ...(intent.toProtocol !== undefined && { toProtocol: intent.toProtocol }),
    ...(intent.sources !== undefined && { sources: intent.sources }),
  };
}

/**
 * POST /intents: validates the body (the shared zod schema), checks the
 * chains against the plan and the wallet (which must be the caller's),
 * stores the intent as `pending` and hands it to the engine. Answers 201
 * with the intent; an Idempotency-Key replays the first answer for 24 h.
 */
export async function submitIntent(deps: SubmitIntentDeps, principal: Principal, body: unknown, idempotencyKey?: string): Promise<SubmitIntentResult> {
  return withIdempotency(deps, { scope: `${principal.account.id}:createIntent`, key: idempotencyKey, request: body }, async ({ seed }) => {
    const params = parseCreateIntent(body);
    assertChainsUsable(principal, namedChains(params), deps.environment);
    const wallet = await getWalletById(deps, principal, params.walletId);
    checkWalletChains(wallet, params);
    // The wallet's spending policy decides what the request alone decides, and reserves the daily cap, before anything is stored.
    const decision = await decideIntent(deps, wallet, params, (error, refusal) =>
      recordAudit(deps, {
        accountId: principal.account.id,
        type: 'intent.denied',
        actor: actorOf(principal),
        subject: { walletId: wallet.id, policyId: String(error.details.policyId) },
        details: { action: params.action, amount: params.amount, asset: params.asset, version: error.details.version, ...refusal },
      }).then(() => undefined),
    );
    // The shared gas tank pays for what the intent sends: its expected gas is reserved of the account's 24 h budget, or nothing starts.
    let gas;
    try {
      const estimate = await estimateIntentGasWei(deps.chains, params, requestSourceChains(deps, wallet, params, decision?.policy.rules));
      gas = await reserveGasBudget(deps.store.usage, principal.account.id, deps.limits.gasBudgetPerAccountWei, estimate, deps.clock.now());
    } catch (e) {
      await decision?.release();
      throw e;
    }
    const now = deps.clock.now().toISOString();
    const intent: Intent & LendOptimization = {
      // under an Idempotency-Key the id comes from the key's record: a retry that took a dead first attempt over names the same intent
      id: seed === undefined ? newId('intent') : `${ID_PREFIX.intent}${seed.slice(0, 32)}`,
      accountId: principal.account.id,
      walletId: wallet.id,
      status: 'pending',
      ...askedOf(params),
      // what the plan moves once planned; until then what was asked
      amount: params.amount,
      executionPlan: null,
      createdAt: now,
      updatedAt: now,
      version: 0,
      ...(decision && { policy: decision.policy }),
      gasReservation: { key: gas.key, gwei: gas.gwei, expiresAt: gas.expiresAt },
    };
    try {
      await deps.store.intents.insert(intent);
    } catch (e) {
      await decision?.release();
      await gas.giveBack();
      // the first attempt stored it (and the engine runs it): the retry answers it
      const first = seed !== undefined && e instanceof DuplicateError ? await deps.store.intents.get(intent.id) : null;
      if (first && first.accountId === intent.accountId) return { status: 201, body: toIntentView(first) };
      throw e;
    }
    // On record before the engine runs it, so it is there before its outcome (recordAudit never throws).
    await recordAudit(deps, {
      accountId: intent.accountId,
      type: 'intent.created',
      actor: actorOf(principal),
      subject: { walletId: intent.walletId, intentId: intent.id },
      details: intentCreatedDetails(intent),
    });
    try {
      await deps.engine.submit(intent);
    } catch (err) {
      // Stored is created: the engine's sweep of never-leased intents (or recovery at the next start) runs it; a failed answer would only invite a retry.
      deps.logger?.warn({ err, intentId: intent.id }, 'intent stored but not handed to the engine; left for its sweep');
    }
    return { status: 201, body: toIntentView(intent) };
  });
}
