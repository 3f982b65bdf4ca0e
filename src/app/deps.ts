import type { LRUCache } from 'lru-cache';
import type { Store } from '../ports/store';
import type { Wallet } from '../domain/types';
import type { KeyVault } from '../ports/keyVault';
import type { KeyCache } from './accounts/keyCache';
import type { KeyRevocations } from './accounts/keyRevocations';
import type { ChainHoldings, ChainPort, MarketRate } from '../ports/chain';
import type { IntentSubmitter } from './intents/createIntent';
import type { IntentCanceller } from './intents/cancelIntent';
import type { IntentBus } from '../ports/intentBus';
import type { PaymentVerifier } from '../ports/payments';
import type { ServiceEnvironment } from '../domain/environment';
import type { KeyUseRecorder } from './accounts/keyUse';
import type { AuditWarnLogger } from './audit/recordAudit';
import type { Operation } from '../domain/plans';
import type { WebhookServices } from './webhooks/dispatcher';
import type { DecisionBus } from './standing/decisionBus';
import type { BacktestSlots } from './standing/backtestSlots';
import type { LedgerWrites } from './balances/ledgerWrites';

/** What every use-case may receive; the composition root builds it once. */
export interface AppDeps {
  store: Store;
  clock: { now(): Date };
  keyVault: KeyVault;
  /** Key lookups by hash; entries are dropped on revocation so it never delays it. */
  keyCache: KeyCache;
  /** Open streams watch the key they were opened with, and end when it is revoked. */
  revocations: KeyRevocations;
  chains: ChainPort;
  caches: ReadCaches;
  /** The position ledger's writes in flight on this instance: balance reads wait for their wallet's (ledgerWrites.ts). */
  ledgerWrites?: LedgerWrites;
  /** Per-account budgets on what the service pays for (docs/decisions.md, "shared gas"). */
  limits: { gasBudgetPerAccountWei: bigint };
  /** Checks and collects x402 payments for paid reads; absent when no payment network is configured. */
  payments?: PaymentVerifier;
  /** The deployment environment (staging serves test networks only, on every plan). */
  environment: ServiceEnvironment;
  /** Signs dashboard session cookies (HMAC-SHA256). */
  sessionSecret: Buffer;
  /** Records when keys are used, written to the store in batches (absent: not recorded). */
  keyUse?: KeyUseRecorder;
  /** Where use-cases report what they carry on past (an audit event that could not be recorded); absent: not logged. */
  logger?: AuditWarnLogger;
  /** Runs intents in the background (the intent engine). */
  engine: IntentSubmitter & IntentCanceller & { bus: IntentBus };
  /** Told of credits an API key's operation was charged for good (its answer was a success), by either door (metrics); absent: not reported. */
  onCreditsCharged?: (operation: Operation, credits: number) => void;
  /** Webhook secrets, the egress rule and the delivery worker's wake-up (absent: webhook operations answer 503). */
  webhooks?: WebhookServices;
  /** Standing intents' decisions as this instance records them, for subscribers here (absent: subscribers follow the store only). */
  decisionBus?: DecisionBus;
  /** The backtests this instance runs now: one per account, a few in all. */
  backtests: BacktestSlots;
}

/** Read caches (single flight, stale-while-revalidate): yields for ≤ 15 s; balances per wallet, dropped whenever the service transacts for that wallet. */
export interface ReadCaches {
  rates: LRUCache<'all', MarketRate[], Pick<ChainPort, 'rates'>>;
  holdings: LRUCache<string, KeptHoldings, { chains: Pick<ChainPort, 'holdings' | 'chains'>; wallet: Wallet }>;
}

/** A wallet's holdings as a read that started at `readAt` (ms since the epoch, this process's clock) found them. */
export interface KeptHoldings {
  holdings: ChainHoldings[];
  readAt: number;
}
