import type { AppDeps } from '../deps';
import { assertChainsUsable, type NamedChain } from '../chainAccess';
import { estimateIntentGasWei, reserveGasBudget } from '../budgets/gasBudget';
import { invalidChain } from '../../domain/errors/chain';
import { walletNotFound } from '../../domain/errors/wallet';
import type { ServiceError } from '../../domain/errors/base';
import { ID_PREFIX, newId } from '../../domain/ids';
import { DuplicateError } from '../../ports/store';
import { DEFAULT_BRIDGE_SPEED, type Intent } from '../../domain/intent';
import type { LendOptimization } from '../../domain/optimize';
import type { AskedOfWallet } from '../../engine/planning';
import { INTENT_CHAIN_FIELDS } from '../../domain/schemas/intent';
import { INTENT_REQUEST_FIELDS, presentFields, type CreateIntentCommand } from '../../domain/commands';
import { auditActorOf, type Actor } from '../../domain/actor';
import type { Wallet } from '../../domain/types';
import { recordAudit } from '../audit/recordAudit';
import { decideIntent, requestSourceChains } from '../policies/decideIntent';

/** The engine as use-cases see it: it takes a persisted pending intent and runs it in the background. */
export interface IntentSubmitter {
  submit(intent: Intent): Promise<void>;
}

/** The use-case deps plus the engine that runs the intent. */
export type CreateIntentDeps = Pick<AppDeps, 'store' | 'clock' | 'limits' | 'environment' | 'logger' | 'chains'> & { engine: IntentSubmitter };
/** INVALID_CHAIN, PLAN_RESTRICTED, WALLET_NOT_FOUND, GAS_BUDGET_EXCEEDED, POLICY_VIOLATION, POLICY_NOT_FOUND. */
export type CreateIntentError = ServiceError;

/** How a caller that retries names the intent: the same `idSeed` for every attempt (an Idempotency-Key's record) names the same intent. */
export interface CreateIntentOptions {
  idSeed?: string;
}

/** The chains a request names, with the field naming each (a rebalance's sources as `sources.N.chain`). */
export function namedChains(command: CreateIntentCommand): NamedChain[] {
  const fields = INTENT_CHAIN_FIELDS.flatMap((field): NamedChain[] => {
    const chain = command[field];
    return chain === undefined ? [] : [{ field, chain }];
  });
  return fields.concat((command.sources ?? []).map((s, i) => ({ field: `sources.${i}.chain`, chain: s.chain })));
}

/** Tron wallets have no supported network yet; EVM wallets only act on their own chains. */
export function checkWalletChains(wallet: Wallet, command: CreateIntentCommand): void {
  if (wallet.chainType === 'tron') {
    throw invalidChain('tron', { walletId: wallet.id, chainType: 'tron', reason: 'intents are not supported on Tron wallets yet' });
  }
  for (const { field, chain } of namedChains(command)) {
    if (!wallet.chains.includes(chain)) throw invalidChain(chain, { field, walletChains: wallet.chains });
  }
}

/**
 * What the request asks, as its intent records it: the fields the engine
 * plans the intent by, and a preview plans the same request by (its bridges
 * fast unless it asked for standard; a withdraw bridges nothing; a
 * rebalance's sources as they were asked, amounts normalised).
 */
export function askedOf(command: CreateIntentCommand): Omit<AskedOfWallet, 'walletId' | 'policy'> {
  const { sources, ...route } = presentFields(command, INTENT_REQUEST_FIELDS.route);
  return {
    action: command.action,
    requestedAmount: command.amount,
    asset: command.asset,
    ...route,
    ...(sources !== undefined && { sources: sources.map((s) => ({ chain: s.chain, protocol: s.protocol, amount: s.amount })) }),
    ...presentFields(command, INTENT_REQUEST_FIELDS.mode),
    ...(command.action !== 'withdraw' && { speed: command.speed ?? DEFAULT_BRIDGE_SPEED }),
  };
}

/** What an intent.created event records: what was asked and where it goes (no wallet key, no transaction). */
function intentCreatedDetails(intent: Intent): Record<string, unknown> {
  return { action: intent.action, amount: intent.requestedAmount, asset: intent.asset, ...presentFields(intent, INTENT_REQUEST_FIELDS.route) };
}

/** The intent id a seeded create gets: the same for every attempt of one seed. */
const seededIntentId = (seed: string) => `${ID_PREFIX.intent}${seed.slice(0, 32)}`;

/** The actor's wallet, or WALLET_NOT_FOUND (another account's answers the same as none). */
async function actorsWallet(deps: Pick<AppDeps, 'store'>, actor: Actor, walletId: string): Promise<Wallet> {
  const wallet = await deps.store.wallets.getById(walletId);
  if (!wallet || wallet.accountId !== actor.account.id) throw walletNotFound({ walletId });
  return wallet;
}

/**
 * Creates an intent: checks the chains against the plan and the wallet
 * (which must be the actor's account's), decides it under the wallet's
 * spending policy, reserves its gas, stores it `pending` and hands it to the
 * engine. Answers the intent as stored. Under `idSeed` a retry whose first
 * attempt stored the intent answers that one instead of creating another.
 */
export async function createIntent(deps: CreateIntentDeps, actor: Actor, command: CreateIntentCommand, options: CreateIntentOptions = {}): Promise<Intent> {
  const accountId = actor.account.id;
  assertChainsUsable(actor, namedChains(command), deps.environment);
  const wallet = await actorsWallet(deps, actor, command.walletId);
  checkWalletChains(wallet, command);
  // The wallet's spending policy decides what the request alone decides, and reserves the daily cap, before anything is stored.
  const decision = await decideIntent(deps, wallet, command, (error, refusal) =>
    recordAudit(deps, {
      accountId,
      type: 'intent.denied',
      actor: auditActorOf(actor),
      subject: { walletId: wallet.id, policyId: String(error.details.policyId) },
      details: { action: command.action, amount: command.amount, asset: command.asset, version: error.details.version, ...refusal },
    }).then(() => undefined),
  );
  // The shared gas tank pays for what the intent sends: its expected gas is reserved of the account's 24 h budget, or nothing starts.
  let gas;
  try {
    const estimate = await estimateIntentGasWei(deps.chains, command, requestSourceChains(deps, wallet, command, decision?.policy.rules));
    gas = await reserveGasBudget(deps.store.usage, accountId, deps.limits.gasBudgetPerAccountWei, estimate, deps.clock.now());
  } catch (e) {
    await decision?.release();
    throw e;
  }
  const now = deps.clock.now().toISOString();
  const intent: Intent & LendOptimization = {
    id: options.idSeed === undefined ? newId('intent') : seededIntentId(options.idSeed),
    accountId,
    walletId: wallet.id,
    status: 'pending',
    ...askedOf(command),
    // what the plan moves once planned; until then what was asked
    amount: command.amount,
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
    const first = options.idSeed !== undefined && e instanceof DuplicateError ? await deps.store.intents.get(intent.id) : null;
    if (first && first.accountId === intent.accountId) return first;
    throw e;
  }
  // On record before the engine runs it, so it is there before its outcome (recordAudit never throws).
  await recordAudit(deps, {
    accountId,
    type: 'intent.created',
    actor: auditActorOf(actor),
    subject: { walletId: intent.walletId, intentId: intent.id },
    details: intentCreatedDetails(intent),
  });
  try {
    await deps.engine.submit(intent);
  } catch (err) {
    // Stored is created: the engine's sweep of never-leased intents (or recovery at the next start) runs it; a failed answer would only invite a retry.
    deps.logger?.warn({ err, intentId: intent.id }, 'intent stored but not handed to the engine; left for its sweep');
  }
  return intent;
}
