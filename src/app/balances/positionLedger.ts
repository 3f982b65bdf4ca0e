import type { Address, Hex } from 'viem';
import { LENDING_PROTOCOLS, type LendingProtocol } from '../../domain/chains';
import { isFinal, type DepositStep, type Intent, type WithdrawStep } from '../../domain/intent';
import { toUnits } from '../../domain/money';
import type { ChainPort } from '../../ports/chain';
import type { PositionLedgerEntry, Store } from '../../ports/store';
import type { LedgerWrites } from './ledgerWrites';

/** What the ledger hook needs. */
export interface PositionLedgerDeps {
  store: { positionLedger: Pick<Store['positionLedger'], 'record'>; wallets: Pick<Store['wallets'], 'getById'> };
  chains: Pick<ChainPort, 'holdings'> & Partial<Pick<ChainPort, 'receipt' | 'supplyIndex'>>;
  logger?: { warn(obj: Record<string, unknown>, msg: string): void };
  /**
   * Whether this instance runs the intent (several instances on one database:
   * each one's bus also carries the others' snapshots, which their own hook
   * records). Absent: every snapshot is this instance's.
   */
  runsHere?: (intentId: string) => boolean;
  /** Where the writes in flight are told, so that a balance read waits for them (ledgerWrites.ts). */
  writes?: LedgerWrites;
}

type LendingStep = (DepositStep | WithdrawStep) & { protocol: LendingProtocol };

const isLendingProtocol = (p: string): p is LendingProtocol => (LENDING_PROTOCOLS as readonly string[]).includes(p);

/** The intent's completed deposit and withdraw steps on a lending protocol: what the ledger owes an entry. */
export function ledgerSteps(intent: Intent): LendingStep[] {
  const out: LendingStep[] = [];
  for (const s of intent.executionPlan?.steps ?? []) {
    if (s.status === 'completed' && (s.type === 'deposit' || s.type === 'withdraw') && isLendingProtocol(s.protocol)) out.push(s as LendingStep);
  }
  return out;
}

/**
 * What a completed deposit supplied, smallest units. The intent's last step
 * supplies what its bridges delivered (the planned amount with each mint's
 * actual fee), which the executor records as the intent's `finalAmount`
 * when it completes it; plans deposit only as their last step, so a deposit
 * elsewhere supplies its planned amount.
 */
function suppliedBy(intent: Intent, step: DepositStep): bigint {
  const last = intent.executionPlan?.steps.at(-1);
  const finalAmount = intent.status === 'completed' ? intent.results?.finalAmount : undefined;
  return last?.index === step.index && finalAmount !== undefined ? toUnits(finalAmount, step.asset) : toUnits(step.amount, step.asset);
}

/** The position a withdraw left, read on its chain now (smallest units; a position the chain no longer reports is 0). */
async function positionNow(deps: PositionLedgerDeps, address: Address, step: LendingStep): Promise<bigint> {
  const held = (await deps.chains.holdings(address, [step.chain])).find((h) => h.chain === step.chain);
  return held?.positions.find((p) => p.protocol === step.protocol && p.asset === step.asset)?.amount ?? 0n;
}

/** The market's supply index at the block of the step's main transaction; undefined when the port does not read indices. */
async function indexAtStep(deps: PositionLedgerDeps, step: LendingStep): Promise<bigint | undefined> {
  const { receipt, supplyIndex } = deps.chains;
  if (!receipt || !supplyIndex || !step.txHash) return undefined;
  const mined = await receipt.call(deps.chains, step.chain, step.txHash as Hex);
  if (mined === null) throw new Error(`no receipt for ${step.txHash} on ${step.chain}`);
  return supplyIndex.call(deps.chains, step.chain, step.protocol, step.asset, mined.blockNumber);
}

/**
 * The ledger entry of one completed step, with the market's supply index at
 * the step's block (principal.ts tells the service's supplies from others'
 * with it). A withdraw also carries the position as read just after it (the
 * interest-first rule of principal.ts needs it). When a read fails, the entry
 * goes without it only if `lastChance` (the intent is final, so no later
 * snapshot will try again), else null: not recorded yet.
 */
async function entryOf(deps: PositionLedgerDeps, intent: Intent, step: LendingStep, lastChance: boolean): Promise<PositionLedgerEntry | null> {
  const base = {
    intentId: intent.id,
    stepIndex: step.index,
    walletId: intent.walletId,
    chain: step.chain,
    protocol: step.protocol,
    asset: step.asset,
    at: step.completedAt ?? intent.updatedAt,
  };
  const entry: PositionLedgerEntry =
    step.type === 'deposit'
      ? { ...base, kind: 'deposit', amount: suppliedBy(intent, step).toString() }
      : { ...base, kind: 'withdraw', amount: toUnits(step.amount, step.asset).toString() };
  try {
    const index = await indexAtStep(deps, step);
    if (index !== undefined) entry.index = index.toString();
  } catch (err) {
    deps.logger?.warn({ err, intentId: intent.id, step: step.index }, "position ledger: the market's index at a step could not be read");
    if (!lastChance) return null;
  }
  if (step.type === 'deposit') return entry;
  try {
    const wallet = await deps.store.wallets.getById(intent.walletId);
    if (!wallet) return entry;
    entry.positionAfter = (await positionNow(deps, wallet.address as Address, step)).toString();
    return entry;
  } catch (err) {
    deps.logger?.warn({ err, intentId: intent.id, step: step.index }, 'position ledger: the position after a withdraw could not be read');
    return lastChance ? entry : null;
  }
}

/**
 * The engine's hook into the position ledger: given every committed snapshot
 * of an intent (the bus delivers each after it is persisted), it records each
 * completed deposit or withdraw step once. The store's key (intentId,
 * stepIndex) makes a step told twice count once; this hook also remembers the
 * steps it has recorded, so later snapshots of the same intent neither write
 * nor read the chain again. A step that completed while no hook ran (the
 * process stopped between the step's commit and its entry) is recorded from
 * the intent's next snapshot after recovery resumes it.
 */
export function positionLedgerHook(deps: PositionLedgerDeps): (intent: Intent) => void {
  /** Steps recorded or being recorded, per open intent (forgotten once the intent is final). */
  const handled = new Map<string, Set<number>>();

  const recordStep = async (intent: Intent, step: LendingStep, lastChance: boolean): Promise<boolean> => {
    const entry = await entryOf(deps, intent, step, lastChance);
    if (entry === null) return false;
    await deps.store.positionLedger.record(entry);
    return true;
  };

  return (intent) => {
    if (deps.runsHere && !deps.runsHere(intent.id)) return;
    const steps = ledgerSteps(intent);
    const final = isFinal(intent.status);
    if (steps.length === 0) {
      if (final) handled.delete(intent.id);
      return;
    }
    let mine = handled.get(intent.id);
    if (!mine) handled.set(intent.id, (mine = new Set()));
    const owed = steps.filter((s) => !mine.has(s.index));
    for (const s of owed) mine.add(s.index);
    const writing = Promise.all(
      owed.map((s) =>
        recordStep(intent, s, final).then(
          (done) => {
            if (!done) mine.delete(s.index);
          },
          (err: unknown) => {
            mine.delete(s.index);
            deps.logger?.warn({ err, intentId: intent.id, step: s.index }, 'position ledger: step not recorded');
          },
        ),
      ),
    ).then(() => {
      if (final) handled.delete(intent.id);
    });
    deps.writes?.track(intent.walletId, writing);
  };
}
