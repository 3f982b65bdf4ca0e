import type { ChainName, LendingProtocol, TokenAsset } from '../../domain/chains';
import { toUnits } from '../../domain/money';
import type {
  BridgeSpeed,
  ExecutionPlan,
  Intent,
  IntentAction,
  IntentError,
  IntentResults,
  IntentStatus,
  RebalanceSource,
  Step,
  TransactionRecord,
} from '../../domain/intent';
import type { TxKind } from '../../ports/chain';

/** The kinds of transaction a view reports (`kind`): the chain port's, named for the front doors, which do not import the ports. */
export type TransactionKind = TxKind;

/** One entry of `results.transactions` as clients see it (the raw signed bytes stay inside). */
export interface TransactionView {
  type: TransactionRecord['type'];
  /** Which transaction of the step: approve, supply, withdraw, burn, mint, or revoke (an allowance taken back after a failure). */
  kind?: string;
  txHash: string;
  chain?: ChainName;
  /** signed (sent, no receipt yet), confirmed or reverted. */
  status?: string;
  /** Other hashes signed at the same nonce (fee-bumped replacements of a stuck transaction); none of them was mined. */
  replacedTxHashes?: string[];
  gasUsed?: string;
  gasCostUsd?: number;
}

/** `results` as clients see it. */
export interface ResultsView extends Omit<IntentResults, 'transactions'> {
  transactions: TransactionView[];
}

/** The API\'s "Intent" resource both front doors return. */
export interface IntentView {
  id: string;
  walletId: string;
  status: IntentStatus;
  action: IntentAction;
  /** Token units the plan moves once planned (after route fees); the requested amount before. the API: a number. */
  amount: number;
  /** `amount` exactly, as an integer string in the asset's smallest units (a JSON number cannot carry 18 decimals). */
  amountUnits: string;
  /** What the client asked for (docs/decisions.md). */
  requestedAmount: number;
  /** `requestedAmount` exactly, in smallest units. */
  requestedAmountUnits: string;
  asset: TokenAsset;
  chain?: ChainName;
  fromChain?: ChainName;
  toChain?: ChainName;
  /** Rebalance: the lending protocol of the target market on `toChain`. */
  toProtocol?: LendingProtocol;
  /** Rebalance: where the moved funds come from (each amount a decimal string; `requestedAmount` is their sum). */
  sources?: RebalanceSource[];
  /** Bridge, lend and rebalance: the speed of the bridges (fast unless the intent asked for standard). */
  speed?: BridgeSpeed;
  /** Null while pending or planning (and when planning failed). */
  executionPlan: (Omit<ExecutionPlan, 'steps'> & { steps: StepView[] }) | null;
  results?: ResultsView;
  error?: IntentError;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
  /** The spending policy (and its version) the intent was decided under; absent when none governed its wallet. */
  policy?: { id: string; version: number };
  /** When a cancel was asked for (POST /intents/:id/cancel); absent when none was. */
  cancelRequestedAt?: string;
}

/** docs/decisions.md polling: seconds a client should wait before asking again; null once the intent is final. */
export function pollAfterSeconds(intent: Pick<Intent, 'status'>): number | null {
  return intent.status === 'completed' || intent.status === 'failed' || intent.status === 'cancelled' ? null : 5;
}

function transactionView(t: TransactionRecord): TransactionView {
  const r = t as TransactionRecord & { kind?: unknown; status?: unknown; replaced?: unknown };
  const view: TransactionView = { type: t.type, txHash: t.txHash };
  if (typeof r.kind === 'string') view.kind = r.kind;
  if (t.chain !== undefined) view.chain = t.chain;
  if (typeof r.status === 'string') view.status = r.status;
  if (Array.isArray(r.replaced) && r.replaced.length > 0) view.replacedTxHashes = r.replaced.map(String);
  if (t.gasUsed !== undefined) view.gasUsed = t.gasUsed;
  if (t.gasCostUsd !== undefined) view.gasCostUsd = t.gasCostUsd;
  return view;
}

/** A step as clients see it: every stored field but the internal ones, plus its amount exactly in smallest units. */
export type StepView = DistributiveOmit<Step, 'permit'> & { amountUnits: string };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Copied so callers never share the record; the asset is the step's own, or the intent's (bridges move USDC). A deposit's `permit` is how it is sent, not what it is. */
function stepView(s: Step, asset: TokenAsset): StepView {
  const { permit: _permit, ...shown } = s as Step & { permit?: true };
  return { ...shown, amountUnits: toUnits(s.amount, 'asset' in s ? s.asset : asset).toString() } as StepView;
}

/** The intent resource of the API's "Intent": amounts as numbers (the API's type) with their exact `…Units` beside them; step amounts stay exact decimal strings. */
export function toIntentView(i: Intent): IntentView {
  const view: IntentView = {
    id: i.id,
    walletId: i.walletId,
    status: i.status,
    action: i.action,
    amount: Number(i.amount),
    amountUnits: toUnits(i.amount, i.asset).toString(),
    requestedAmount: Number(i.requestedAmount),
    requestedAmountUnits: toUnits(i.requestedAmount, i.asset).toString(),
    asset: i.asset,
    executionPlan: i.executionPlan === null ? null : { ...i.executionPlan, steps: i.executionPlan.steps.map((st) => stepView(st, i.asset)) },
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
  if (i.chain !== undefined) view.chain = i.chain;
  if (i.fromChain !== undefined) view.fromChain = i.fromChain;
  if (i.toChain !== undefined) view.toChain = i.toChain;
  if (i.toProtocol !== undefined) view.toProtocol = i.toProtocol;
  if (i.sources !== undefined) view.sources = i.sources.map((s) => ({ ...s }));
  if (i.speed !== undefined) view.speed = i.speed;
  if (i.results !== undefined) view.results = { ...i.results, transactions: i.results.transactions.map(transactionView) };
  if (i.error !== undefined) view.error = i.error;
  if (i.completedAt !== undefined) view.completedAt = i.completedAt;
  if (i.policy !== undefined) view.policy = { id: i.policy.id, version: i.policy.version };
  if (i.cancelRequestedAt !== undefined) view.cancelRequestedAt = i.cancelRequestedAt;
  return view;
}
