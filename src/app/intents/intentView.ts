import type { ChainName, TokenAsset } from '../../domain/chains';
import type { ExecutionPlan, Intent, IntentAction, IntentError, IntentResults, IntentStatus, Step, TransactionRecord } from '../../domain/intent';

/** One entry of `results.transactions` as clients see it (the raw signed bytes stay inside). */
export interface TransactionView {
  type: TransactionRecord['type'];
  /** Which transaction of the step: approve, supply, withdraw, burn, mint. */
  kind?: string;
  txHash: string;
  chain?: ChainName;
  /** signed (sent, no receipt yet), confirmed or reverted. */
  status?: string;
  gasUsed?: string;
  gasCostUsd?: number;
}

/** `results` as clients see it. */
export interface ResultsView extends Omit<IntentResults, 'transactions'> {
  transactions: TransactionView[];
}

/** The SPEC "Intent" resource both front doors return. */
export interface IntentView {
  id: string;
  walletId: string;
  status: IntentStatus;
  action: IntentAction;
  /** Token units the plan moves once planned (after route fees); the requested amount before. SPEC: a number. */
  amount: number;
  /** What the client asked for (DESIGN §4). */
  requestedAmount: number;
  asset: TokenAsset;
  chain?: ChainName;
  fromChain?: ChainName;
  toChain?: ChainName;
  /** Null while pending or planning (and when planning failed). */
  executionPlan: ExecutionPlan | null;
  results?: ResultsView;
  error?: IntentError;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
}

/** DESIGN §4 polling: seconds a client should wait before asking again; null once the intent is final. */
export function pollAfterSeconds(intent: Pick<Intent, 'status'>): number | null {
  return intent.status === 'completed' || intent.status === 'failed' ? null : 5;
}

function transactionView(t: TransactionRecord): TransactionView {
  const r = t as TransactionRecord & { kind?: unknown; status?: unknown };
  const view: TransactionView = { type: t.type, txHash: t.txHash };
  if (typeof r.kind === 'string') view.kind = r.kind;
  if (t.chain !== undefined) view.chain = t.chain;
  if (typeof r.status === 'string') view.status = r.status;
  if (t.gasUsed !== undefined) view.gasUsed = t.gasUsed;
  if (t.gasCostUsd !== undefined) view.gasCostUsd = t.gasCostUsd;
  return view;
}

/** A step as stored, minus nothing: its fields are all public. Copied so callers never share the record. */
const stepView = (s: Step): Step => ({ ...s });

/** The intent resource of SPEC "Intent" (amounts as numbers; step amounts stay exact decimal strings). */
export function toIntentView(i: Intent): IntentView {
  const view: IntentView = {
    id: i.id,
    walletId: i.walletId,
    status: i.status,
    action: i.action,
    amount: Number(i.amount),
    requestedAmount: Number(i.requestedAmount),
    asset: i.asset,
    executionPlan: i.executionPlan === null ? null : { ...i.executionPlan, steps: i.executionPlan.steps.map(stepView) },
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
  if (i.chain !== undefined) view.chain = i.chain;
  if (i.fromChain !== undefined) view.fromChain = i.fromChain;
  if (i.toChain !== undefined) view.toChain = i.toChain;
  if (i.results !== undefined) view.results = { ...i.results, transactions: i.results.transactions.map(transactionView) };
  if (i.error !== undefined) view.error = i.error;
  if (i.completedAt !== undefined) view.completedAt = i.completedAt;
  return view;
}
