import type { AccountModel, ChainName } from '../../domain/chains';
import type { Intent, Step } from '../../domain/intent';
import { hashesOf, isSubTxRecord, type OperationCall, type SubTxRecord } from '../../domain/txRecords';
import { subTransactions, type SubTxSpec } from '../stepRequests';

/** One sub-transaction of the plan: the step it belongs to and what it sends. */
export interface ExecUnit {
  step: Step;
  spec: SubTxSpec;
}

/** How `chain` runs the intent's calls, as decided at planning (a chain not recorded: `plain`). */
export const modelOf = (intent: Intent, chain: ChainName): AccountModel => intent.accountModels?.[chain] ?? 'plain';

/**
 * The order the plan's sub-transactions run in. With no `7702` chain in the
 * plan: the plan's order, step after step. With one, the calls are grouped
 * by chain so that each chain's calls form one run, hence one user
 * operation: every chain in order of first appearance, except that a chain a
 * bridge mints into comes after every other (its mints need their burns, and
 * a rebalance from two chains then mints both into one operation). Within a
 * chain the plan's order holds, so a step's approve still precedes its spend.
 */
export function executionOrder(intent: Intent): ExecUnit[] {
  const steps = intent.executionPlan?.steps ?? [];
  const units = steps.flatMap((step) => subTransactions(step).map((spec) => ({ step, spec })));
  if (!units.some((u) => modelOf(intent, u.spec.chain) === '7702')) return units;
  const mintedInto = new Set(steps.flatMap((s) => (s.type === 'bridge' ? [s.to] : [])));
  const firstSeen = new Map<ChainName, number>();
  units.forEach((u, i) => firstSeen.set(u.spec.chain, firstSeen.get(u.spec.chain) ?? i));
  const key = (u: ExecUnit): [number, number] => [mintedInto.has(u.spec.chain) ? 1 : 0, firstSeen.get(u.spec.chain)!];
  return units
    .map((u, i) => ({ u, i, k: key(u) }))
    .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.i - b.i)
    .map((x) => x.u);
}

/** The call of a unit as the operation's events name it. */
export const callOf = (u: ExecUnit): OperationCall => ({ step: u.step.index, kind: u.spec.kind, main: u.spec.main });

/** The units a signed operation carries: those whose records hold one of its hashes, in execution order. */
export function unitsOfOperation(intent: Intent, record: SubTxRecord): ExecUnit[] {
  const hashes = hashesOf(record);
  const carried = (u: ExecUnit): boolean =>
    (intent.results?.transactions ?? []).some(
      (t) => isSubTxRecord(t) && t.step === u.step.index && t.kind === u.spec.kind && t.operation !== undefined && hashes.includes(t.txHash),
    );
  return executionOrder(intent).filter(carried);
}
