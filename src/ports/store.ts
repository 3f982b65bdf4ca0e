import type { Account, ApiKeyRecord, IdempotencyRecord, SessionRecord, User, Wallet, WalletKeyRecord } from '../domain/types';
import type { Intent, IntentStatus } from '../domain/intent';
import type { AuditEvent, AuditEventType } from '../domain/audit';
import type { Policy } from '../domain/policy';
import type { WebhookDelivery, WebhookEndpoint } from '../domain/webhooks';
import type { RateSample } from '../domain/rateHistory';
import type { ChainName, LendingProtocol, TokenAsset } from '../domain/chains';
import type { SampleCosts } from '../domain/standingIntent';
import type { StandingDecision, StandingIntent } from '../domain/standingIntent';

/**
 * The store port: narrow repositories the use-cases receive. Two adapters
 * implement it (memory, mongo); one contract suite (test/contract) runs
 * against both.
 */
export interface AccountRepo {
  insert(account: Account): Promise<void>;
  get(id: string): Promise<Account | null>;
}

export interface ApiKeyRepo {
  insert(key: ApiKeyRecord): Promise<void>;
  get(id: string): Promise<ApiKeyRecord | null>;
  findByHash(hash: string): Promise<ApiKeyRecord | null>;
  listByAccount(accountId: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when no such key exists. Idempotent. */
  revoke(id: string, at: string): Promise<boolean>;
  /** Records when keys were last used, in one batch; a key's `lastUsedAt` only ever moves forward. */
  recordUse(uses: readonly { id: string; at: string }[]): Promise<void>;
}

export interface UserRepo {
  /** Inserts; throws DuplicateError ('users.issuer_subject') when that identity already has a user. */
  insert(user: User): Promise<void>;
  findByIdentity(issuer: string, subject: string): Promise<User | null>;
  /** Sets the user's e-mail (the provider's current one) and last sign-in time. */
  recordSignIn(id: string, email: string, at: string): Promise<void>;
}

export interface SessionRepo {
  insert(session: SessionRecord): Promise<void>;
  /** The session, or null when there is none or it has expired. */
  get(id: string): Promise<SessionRecord | null>;
  /** Ends a session (sign-out). Idempotent. */
  delete(id: string): Promise<void>;
}

export interface WalletRepo {
  /** Inserts; throws DuplicateError when (accountId, userId) or id already exists. */
  insert(wallet: Wallet): Promise<void>;
  getById(id: string): Promise<Wallet | null>;
  getByUserId(accountId: string, userId: string): Promise<Wallet | null>;
  countByAccount(accountId: string): Promise<number>;
  /** An account's wallets, newest first (createdAt, then id, descending), at most `limit`. */
  listByAccount(accountId: string, limit: number): Promise<Wallet[]>;
  /** Sets (or, with null, removes) the wallet's own spending policy. */
  setPolicy(walletId: string, policyId: string | null): Promise<void>;
  /** How many wallets have `policyId` as their own policy. */
  countByPolicy(policyId: string): Promise<number>;
  /** How many of an account's wallets have no policy of their own (its account-scope policy governs those). */
  countWithoutPolicy(accountId: string): Promise<number>;
}

/** Position in an account's policy list (newest first): the last item seen. */
export interface PolicyCursor {
  createdAt: string;
  id: string;
}

export interface PolicyRepo {
  /** Inserts; a second `scope: "account"` policy of one account throws DuplicateError('policies.accountScope'). */
  insert(policy: Policy): Promise<void>;
  get(id: string): Promise<Policy | null>;
  /** An account's policies, newest first (createdAt, then id, descending). */
  listByAccount(accountId: string, query: { limit: number; after?: PolicyCursor }): Promise<Policy[]>;
  /** Replaces the policy when its version is still `expectedVersion`; false otherwise. */
  update(policy: Policy, expectedVersion: number): Promise<boolean>;
  /** Removes the policy (and its account-scope claim). Idempotent. */
  delete(id: string): Promise<void>;
  /** The account's one `scope: "account"` policy, if any. */
  accountPolicy(accountId: string): Promise<Policy | null>;
}

export interface WalletKeyRepo {
  insert(record: WalletKeyRecord): Promise<void>;
  get(walletId: string): Promise<WalletKeyRecord | null>;
  /** Removes the key of a wallet that was never created (its insert lost a race or failed). Idempotent. */
  delete(walletId: string): Promise<void>;
  /** Up to `limit` records after `afterWalletId`, by wallet id (the key migration walks them all). */
  list(afterWalletId: string | undefined, limit: number): Promise<WalletKeyRecord[]>;
  /** Replaces the record of `record.walletId` whole (a key moved to another provider). */
  replace(record: WalletKeyRecord): Promise<void>;
}

export interface UsageRepo {
  /** Atomically adds `by` to a counter and returns the new value; the counter expires at `expiresAt`. */
  increment(key: string, by: number, expiresAt: Date): Promise<number>;
  /**
   * Adds `by` only if the counter stays ≤ `max`, in one atomic step: the new
   * value, or null (nothing added) when it would pass `max`. Nothing to give
   * back on a refusal, so a crash cannot leave a refused amount counted.
   */
  incrementIfAtMost(key: string, by: number, max: number, expiresAt: Date): Promise<number | null>;
  get(key: string): Promise<number>;
  /** Several counters in one read, in the order of `keys` (0 for absent or expired ones). */
  getMany(keys: readonly string[]): Promise<number[]>;
}

export interface IdempotencyRepo {
  /** Inserts when (scope, key) is free; returns the existing record otherwise. */
  insertIfAbsent(record: IdempotencyRecord): Promise<IdempotencyRecord | null>;
  /**
   * Compare-and-set on an in-progress record: when it is still held by
   * `expectedOwner` (status 0), hands it to `owner` until `lockedUntil`.
   * True for the one caller that wins.
   */
  takeOver(scope: string, key: string, expectedOwner: string | null, owner: string, lockedUntil: string): Promise<boolean>;
  /** Stores the answer, if `owner` still holds the record (a stale owner waking late changes nothing). */
  complete(scope: string, key: string, owner: string, status: number, body: unknown): Promise<boolean>;
  /** Frees the key after a failed attempt, if `owner` still holds it. */
  delete(scope: string, key: string, owner: string): Promise<void>;
}

/** Position in a wallet's intent list (newest first): the last item seen. */
export interface IntentCursor {
  createdAt: string;
  id: string;
}

/** One page request of `IntentRepo.listByWallet`. */
export interface IntentListQuery {
  status?: IntentStatus;
  /** Page size, ≥ 1. */
  limit: number;
  /** Items strictly after this one in the order (createdAt, id) descending. */
  after?: IntentCursor;
  /** Only intents whose `updatedAt` is at or after this instant (ISO 8601): what changed since a read. */
  updatedSince?: string;
}

export interface IntentRepo {
  /** Inserts; throws DuplicateError ('intents.id') when the id exists. */
  insert(intent: Intent): Promise<void>;
  get(id: string): Promise<Intent | null>;
  /**
   * Replaces the stored intent when its version is still `expectedVersion`;
   * otherwise (or when it does not exist) throws VERSION_CONFLICT.
   */
  update(intent: Intent, expectedVersion: number): Promise<void>;
  /** A wallet's intents, newest first (createdAt, then id, descending). */
  listByWallet(walletId: string, query: IntentListQuery): Promise<Intent[]>;
  /** An account's intents across its wallets, newest first, at most `limit`. */
  listByAccount(accountId: string, limit: number): Promise<Intent[]>;
  /** Every intent not yet completed or failed, oldest first (recovery resumes them in creation order). */
  listNonFinal(): Promise<Intent[]>;
}

/**
 * What the MongoDB-compatible server at hand can do, probed once at start on
 * a scratch collection (MongoDB, Amazon DocumentDB, Azure Cosmos DB for
 * MongoDB and FerretDB differ exactly here). The first two are required: the
 * service refuses to start without them. The others are used when present.
 */
export interface StoreCapabilities {
  /** Required: a unique index refuses a second document with the same key (wallet ids, key hashes, idempotency keys). */
  uniqueIndexes: boolean;
  /** Required: a guarded findOneAndUpdate with $inc and upsert returns the document after (rate windows, credits). */
  conditionalUpdates: boolean;
  /** Multi-document transactions. */
  transactions: boolean;
  /** Change streams (the cross-instance event feed follows a collection by polling without them). */
  changeStreams: boolean;
  /** TTL indexes are accepted (expired usage windows and idempotency keys are removed by the server). */
  ttlIndexes: boolean;
  /** `hello` reports the server's clock (shared time windows use it). */
  serverClock: boolean;
}

/** Claimed x402 authorization nonces: one payment proof pays for one read, however often it is sent. */
export interface PaymentNonceRepo {
  /** Claims `key` (network, payer and the authorization's nonce); false when it was claimed before. */
  claim(key: string, record: { payer: string; network: string; at: string }): Promise<boolean>;
  /** Whether `key` was claimed. */
  isClaimed(key: string): Promise<boolean>;
}

/**
 * Per-payer locks of paid reads (docs/api-guide.md, "Paying per request"):
 * one payer's proofs are verified and settled one at a time across every
 * instance on the database, so two proofs cannot both be verified against a
 * balance that pays for one. A lock is a lease: held by `owner` (unique per
 * request) until `untilMs` (ms since the epoch, on the shared clock)
 * inclusive; a holder that crashed stops blocking once its lease runs out.
 */
export interface PaymentLockRepo {
  /** Takes the lock `key` for `owner` until `untilMs`, in one conditional update: granted when free, expired at `nowMs`, or already `owner`'s; false when another owner holds it. */
  acquire(key: string, owner: string, nowMs: number, untilMs: number): Promise<boolean>;
  /** Gives the lock back, if `owner` still holds it (a late release never frees another owner's lock). Idempotent. */
  release(key: string, owner: string): Promise<void>;
}

/** One entry of the shared intent event log: a persisted snapshot and the instance that wrote it. */
export interface IntentEventEntry {
  /** Position in the log: strictly increasing, shared by every instance on the database. */
  seq: number;
  /** The instance whose engine persisted the snapshot. */
  origin: string;
  intent: Intent;
}

/**
 * The append-only log of intent snapshots that carries progress between
 * instances (a subscription on one instance sees intents another executes).
 * Entries are kept for a while (an hour on MongoDB with TTL) and followed by
 * sequence: a follower never needs more than what was appended after it
 * started.
 */
export interface IntentEventLog {
  /** Appends a snapshot; resolves with its sequence number. */
  append(origin: string, intent: Intent): Promise<number>;
  /** Entries after `seq`, in sequence order, at most `limit`. */
  readAfter(seq: number, limit: number): Promise<IntentEventEntry[]>;
  /** The last sequence number appended (0 when none). */
  head(): Promise<number>;
}

/**
 * Who runs an intent (docs/architecture.md, "Several instances"): a lease per
 * intent, held by one engine (`owner`, unique per engine start) until a time
 * (ms since the epoch, on the shared clock) and renewed while it runs. An
 * engine that dies stops renewing; once its leases expire another engine
 * takes them and resumes the intents from their receipts. Leases live beside
 * the intents, not in them: an intent is replaced whole on every transition
 * (optimistic `version`), which would erase or race a lease kept inside it.
 */
export interface IntentLeaseRepo {
  /**
   * Takes the lease of intent `id` for `owner` until `untilMs`, in one
   * conditional update: granted when the lease is free, expired at `nowMs`,
   * or already `owner`'s (then extended). False when another owner holds it.
   * A lease is held through its `untilMs` inclusive, here and below.
   */
  acquire(id: string, owner: string, nowMs: number, untilMs: number): Promise<boolean>;
  /**
   * Extends every lease `owner` holds to `untilMs`; resolves with the intent
   * ids it still holds. A lease of `owner` that expired but was not taken by
   * another owner yet is extended too (its owner is still running it).
   */
  renew(owner: string, untilMs: number): Promise<string[]>;
  /** Gives the lease of `id` back, if `owner` holds it (the intent is final, or the engine stops). */
  release(id: string, owner: string): Promise<void>;
  /**
   * Gives back every lease `owner` holds (a clean stop): each is left expired
   * as of `nowMs`, owned by nobody, so other engines find it at their next
   * look for expired leases (`listExpired`) and take it over at once.
   */
  releaseAll(owner: string, nowMs: number): Promise<void>;
  /** Ids of intents whose lease expired before `nowMs` (their owner stopped renewing), oldest expiry first, at most `limit`. */
  listExpired(nowMs: number, limit: number): Promise<string[]>;
  /** Which of `ids` have a lease held (not expired) at `nowMs`. */
  heldAmong(ids: readonly string[], nowMs: number): Promise<Set<string>>;
}

/**
 * Transaction nonces of the accounts several instances sign for (the gas
 * tank, which is also the CCTP relayer, and the faucet): one counter per
 * chain and address, taken with one atomic update, so two instances never
 * sign two transactions with one nonce. `key` is `${chainId}:${address}`
 * (address lower-case).
 */
export interface NonceRepo {
  /**
   * Takes the next nonce: the stored counter, raised to `chainPending` (the
   * chain's pending nonce, read just before) when the chain is ahead (another
   * sender, a fresh database). When the counter is ahead of a chain whose
   * pending nonce has not moved for `gapMs`, the nonces in between were handed
   * out and never sent (a gap that would hold every later transaction): the
   * counter is re-synchronised to `chainPending`.
   */
  take(key: string, chainPending: number, nowMs: number, gapMs: number): Promise<number>;
  /** Gives `nonce` back when it is still the last one taken (its transaction was never sent), so no gap is left. */
  giveBack(key: string, nonce: number): Promise<void>;
  /**
   * Since when (ms) the chain's pending nonce has been `chainPending`, as the
   * takers reported it; null when the counter last saw another value. A
   * sender waiting for the nonces below its own counts a gap from there, not
   * from its own take, so a gap left by a dead instance is filled once, early.
   */
  chainStillSince(key: string, chainPending: number): Promise<number | null>;
}

/** One persisted change of an intent, in the order the store applied them. */
export interface IntentChange {
  intent: Intent;
  /** Where to resume the feed after this change (MongoDB: the change stream's resume token). */
  resumeToken: unknown;
}

/**
 * The store's own feed of intent writes (inserts and replacements), followed
 * by the cross-instance event bus. MongoDB: a change stream on `intents`,
 * resumed after the last token seen when it is interrupted, so a reconnect
 * loses no update. Memory: every insert and update of this process's store.
 */
export interface IntentChangeFeed {
  /**
   * Calls `onChange` for each change after `resumeAfter` (absent: from now)
   * until the returned function is called. Resolves once the feed is open, so
   * a write made after it resolves is delivered. `onError` hears failures of
   * the feed (it keeps resuming from the last token seen).
   */
  watch(onChange: (change: IntentChange) => void, options?: { resumeAfter?: unknown; onError?: (err: unknown) => void }): Promise<() => Promise<void>>;
}

/** Position in an account's audit log (newest first): the last event seen. */
export interface AuditCursor {
  at: string;
  id: string;
}

/** One page request of `AuditLog.list`: filters, all optional, and the page. */
export interface AuditListQuery {
  type?: AuditEventType;
  /** Events whose subject is this wallet. */
  walletId?: string;
  /** Events whose subject is this intent. */
  intentId?: string;
  /** Events at or after this instant (ISO 8601 UTC, as `toISOString()` writes it). */
  since?: string;
  /** Page size, ≥ 1. */
  limit: number;
  /** Events strictly after this one in the order (at, id) descending. */
  after?: AuditCursor;
}

/**
 * The audit log: append-only, per account, newest first (at, then id,
 * descending). Events older than AUDIT_RETENTION_DAYS are gone (a TTL index
 * on MongoDB; the memory adapter drops them on append and list), and never
 * listed even before the server removes them.
 */
export interface AuditLog {
  append(event: AuditEvent): Promise<void>;
  list(accountId: string, query: AuditListQuery): Promise<AuditEvent[]>;
}

/** Which samples `RateHistoryRepo.list` returns: the market filters (all optional) and the window [from, to). */
export interface RateHistoryQuery {
  chain?: RateSample['chain'];
  protocol?: RateSample['protocol'];
  asset?: RateSample['asset'];
  /** Samples at or after this instant (ISO 8601 UTC). */
  from: string;
  /** Samples strictly before this instant (ISO 8601 UTC). */
  to: string;
}

/** What a move cost at one sample minute, as the sampler recorded it with the APYs. */
export interface RecordedCosts {
  /** The sample minute (ISO 8601 UTC, a whole minute). */
  at: string;
  costs: SampleCosts;
}

/**
 * APY samples, one per (chain, protocol, asset, token, sample minute):
 * recording a sample of a market and minute already stored replaces its APY
 * (so several instances sampling the same minute keep one sample). A sample
 * without a token (recorded before samples named it) is a market of its own.
 * Beside them, one record per sample minute of what a move cost then. Samples
 * and costs older than RATE_HISTORY_RETENTION_DAYS are gone (a TTL index on
 * MongoDB; the memory adapter drops them) and never listed.
 */
export interface RateHistoryRepo {
  /** Upserts each sample by (chain, protocol, asset, token, at). */
  record(samples: readonly RateSample[]): Promise<void>;
  /** The samples in the query's window, ordered by chain, protocol, asset, token (samples without one first), then `at` ascending. */
  list(query: RateHistoryQuery): Promise<RateSample[]>;
  /** Upserts the costs of sample minute `at` (a second record of the minute replaces them). */
  recordCosts(at: string, costs: SampleCosts): Promise<void>;
  /** The costs recorded in [from, to), `at` ascending. */
  listCosts(from: string, to: string): Promise<RecordedCosts[]>;
}

/**
 * One completed deposit or withdraw step of an intent, as the position ledger
 * keeps it (src/app/balances/positionLedger.ts): what the service itself put
 * into or took out of a lending position, from which a position's principal
 * is folded.
 */
export interface PositionLedgerEntry {
  intentId: string;
  /** The step's index in the intent's plan: (intentId, stepIndex) is the entry's key. */
  stepIndex: number;
  walletId: string;
  chain: ChainName;
  protocol: LendingProtocol;
  asset: TokenAsset;
  kind: 'deposit' | 'withdraw';
  /** What the step supplied or took back, smallest units (integer string). */
  amount: string;
  /** A withdraw: the position as read just after it, smallest units (integer string); absent when it could not be read. */
  positionAfter?: string;
  /**
   * The market's supply index (ray, integer string) at the step's block: what
   * the step supplied or took is worth `amount / index` units of the
   * protocol's own scaled balance, so earnings count only the service's
   * supplies grown by the index. Absent on entries recorded before it was
   * kept, or when it could not be read (the position then falls back to
   * balance − principal).
   */
  index?: string;
  /** When the step completed (ISO 8601): the ledger applies a position's entries in this order. */
  at: string;
}

/**
 * The position ledger: one entry per completed deposit or withdraw step,
 * keyed (intentId, stepIndex), so a step told twice (a replayed snapshot,
 * another instance, recovery) is counted once.
 */
export interface PositionLedgerRepo {
  /** Inserts the entry unless one with its (intentId, stepIndex) exists; resolves whether it was new. */
  record(entry: PositionLedgerEntry): Promise<boolean>;
  /** Every entry of the wallet, ordered by `at`, then intentId, then stepIndex. */
  listByWallet(walletId: string): Promise<PositionLedgerEntry[]>;
}

/** Position in an endpoint's delivery log (newest first): the last delivery seen. */
export interface DeliveryCursor {
  createdAt: string;
  id: string;
}

/** What one attempt decided: written only while the worker still holds the delivery's lease. */
export interface DeliveryOutcome {
  status: WebhookDelivery['status'];
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
}

/** What a claim passes over: deliveries of these accounts and endpoints. */
export interface ClaimSkip {
  accounts?: readonly string[];
  endpoints?: readonly string[];
}

/**
 * Webhook endpoints and the deliveries owed to them (persisted, so they
 * survive a restart). A worker takes a due delivery with `claimDue`, one
 * conditional update that leases it until `leaseUntil`: two workers (or two
 * instances) never hold the same attempt; a worker that dies lets the lease
 * run out and another takes the delivery again (at-least-once).
 */
export interface WebhookRepo {
  /** Inserts; throws DuplicateError('webhookEndpoints.id') when the id exists. */
  insertEndpoint(endpoint: WebhookEndpoint): Promise<void>;
  getEndpoint(id: string): Promise<WebhookEndpoint | null>;
  /** An account's endpoints, newest first (createdAt, then id, descending). */
  listEndpoints(accountId: string): Promise<WebhookEndpoint[]>;
  countEndpoints(accountId: string): Promise<number>;
  /** Removes the endpoint and every delivery owed to it; false when there was none. */
  deleteEndpoint(id: string): Promise<boolean>;
  /** Inserts; false (nothing written) when a delivery with that id exists already. */
  insertDelivery(delivery: WebhookDelivery): Promise<boolean>;
  getDelivery(id: string): Promise<WebhookDelivery | null>;
  /** An endpoint's deliveries, newest first (createdAt, then id, descending). */
  listDeliveries(endpointId: string, query: { limit: number; after?: DeliveryCursor }): Promise<WebhookDelivery[]>;
  /**
   * Leases the pending delivery due soonest (nextAttemptAt ≤ now, not leased
   * or its lease run out) to `owner` until `leaseUntil`, in one conditional
   * update; null when none is due. Deliveries of the accounts and endpoints
   * in `skip` are left alone (the worker's fair share: an account or endpoint
   * with all its slots busy waits, the others go first).
   */
  claimDue(now: string, leaseUntil: string, owner: string, skip?: ClaimSkip): Promise<WebhookDelivery | null>;
  /** Records an attempt's outcome and ends the lease, if `owner` still holds it; false otherwise (nothing written). */
  finishAttempt(id: string, owner: string, outcome: DeliveryOutcome): Promise<boolean>;
  /** Gives the lease back without an attempt counted (a worker stopping); false when `owner` no longer holds it. */
  release(id: string, owner: string): Promise<boolean>;
}

/** Position in an account's standing intents (newest first): the last one seen. */
export interface StandingIntentCursor {
  createdAt: string;
  id: string;
}

/**
 * Standing intents (docs/standing-intents.md). One per wallet and asset: a
 * second one would fight the first over the same funds.
 */
export interface StandingIntentRepo {
  /** Inserts; throws DuplicateError ('standingIntents.id', or 'standingIntents.walletId_asset' when the wallet has one for the asset). */
  insert(standing: StandingIntent): Promise<void>;
  get(id: string): Promise<StandingIntent | null>;
  /** An account's standing intents, newest first (createdAt, then id, descending). */
  listByAccount(accountId: string, query: { limit: number; after?: StandingIntentCursor }): Promise<StandingIntent[]>;
  countByAccount(accountId: string): Promise<number>;
  /** A wallet's standing intents, any status. */
  listByWallet(walletId: string): Promise<StandingIntent[]>;
  /** Every `active` standing intent (what the decider decides on each sample), oldest first. */
  listActive(): Promise<StandingIntent[]>;
  /** Replaces it when its version is still `expectedVersion`; false otherwise (or when it is gone). Its wallet and asset never change. */
  update(standing: StandingIntent, expectedVersion: number): Promise<boolean>;
  /** Removes it; false when there was none. */
  delete(id: string): Promise<boolean>;
}

/** Position in a standing intent's decisions (newest first): the last one seen. */
export interface StandingDecisionCursor {
  sampleAt: string;
  id: string;
}

/** What became of a decision to move once its rebalance intent was (or could not be) submitted. */
export type DecisionSettlement = Pick<StandingDecision, 'outcome'> & Partial<Pick<StandingDecision, 'reason' | 'rule' | 'intentId'>>;

/**
 * The decisions of standing intents: one per standing intent and sample
 * minute, whichever instance decides first (a unique key on MongoDB), kept
 * DECISION_RETENTION_DAYS (a TTL index on MongoDB; the memory adapter drops
 * older ones) and never listed after that.
 */
export interface StandingDecisionRepo {
  /** Inserts unless a decision of the same (standingIntentId, sampleAt) exists: false then (already decided, nothing written). */
  insertOnce(decision: StandingDecision): Promise<boolean>;
  /** Records the outcome of a decision to move (its intent, or why it did not move after all). */
  /** ... only while it is unsettled (a move with no intent yet): false when it was settled already (by another instance). */
  settle(id: string, settlement: DecisionSettlement): Promise<boolean>;
  get(id: string): Promise<StandingDecision | null>;
  /** A standing intent's decisions, newest first (sampleAt, then id, descending). */
  list(standingIntentId: string, query: { limit: number; after?: StandingDecisionCursor }): Promise<StandingDecision[]>;
  /** How many of its decisions at or after `since` (a sample minute, ISO) moved funds. */
  countRebalancedSince(standingIntentId: string, since: string): Promise<number>;
  /** Removes a deleted standing intent's decisions. */
  deleteByStandingIntent(standingIntentId: string): Promise<void>;
}

export interface Store {
  readonly kind: 'memory' | 'mongo';
  /** What the database server can do, probed at start (MongoDB; the memory store has every capability it needs in-process). */
  readonly capabilities?: Readonly<StoreCapabilities>;
  /** The database server's time, where it reports one: windows shared by instances (rates, credits, budgets) are cut on it. */
  readonly clock?: { now(): Date };
  accounts: AccountRepo;
  apiKeys: ApiKeyRepo;
  wallets: WalletRepo;
  walletKeys: WalletKeyRepo;
  usage: UsageRepo;
  idempotency: IdempotencyRepo;
  intents: IntentRepo;
  intentEvents: IntentEventLog;
  intentLeases: IntentLeaseRepo;
  nonces: NonceRepo;
  /** Absent where the server has no change streams: the bus then follows `intentEvents`. */
  intentChanges?: IntentChangeFeed;
  paymentNonces: PaymentNonceRepo;
  paymentLocks: PaymentLockRepo;
  users: UserRepo;
  sessions: SessionRepo;
  auditLog: AuditLog;
  policies: PolicyRepo;
  webhooks: WebhookRepo;
  rateHistory: RateHistoryRepo;
  positionLedger: PositionLedgerRepo;
  standingIntents: StandingIntentRepo;
  standingDecisions: StandingDecisionRepo;
  /**
   * The deployment environment this database belongs to (docs/decisions.md, "staging"):
   * recorded on first start; a database recorded for another environment
   * refuses to serve this one. Absent on the memory store (nothing shared).
   */
  claimEnvironment?(environment: string): Promise<void>;
  /** Throws when the backing database is unreachable (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A unique constraint was violated; `index` names which one. */
export class DuplicateError extends Error {
  override readonly name = 'DuplicateError';
  constructor(readonly index: string) {
    super(`duplicate key on ${index}`);
  }
}
