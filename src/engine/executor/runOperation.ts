import { ServiceError } from '../../domain/errors/base';
import type { Intent } from '../../domain/intent';
import { toUnits } from '../../domain/money';
import { findSubTx, type SubTxRecord } from '../../domain/txRecords';
import { NonceConsumedError, WouldRevertError, type SignedOperation, type TxReceipt, type TxRequest } from '../../ports/chain';
import { sleep, throwIfAborted } from '../abort';
import { backoffMs, isTransient } from '../retry';
import { depositAmount } from '../stepAmounts';
import { stepRequest } from '../stepRequests';
import type { UnitContext } from '../unitContext';
import { followTx } from './followTx';
import { callOf, type ExecUnit } from './operations';
import { failStep, runSubTx } from './runSubTx';
import { stepFailed } from './stepFailure';

/** A user operation about to be sent, or found already decided: its requests, or the unit to run on its own instead. */
type Prepared = { requests: TxRequest[] } | { observedMint: ExecUnit };

/**
 * The requests of the operation's calls, in order. A mint asks for the
 * attestation of its step's burn (confirmed before, on another chain); a
 * message someone else already received is not minted again: that unit runs
 * on its own (it is observed, runSubTx). A deposit in the same operation as
 * the mints that bring its funds supplies what they will deliver, read from
 * their attested messages.
 */
async function prepare(intent: Intent, units: readonly ExecUnit[], ctx: UnitContext): Promise<Prepared> {
  const arriving = new Map<number, bigint>();
  const requests: TxRequest[] = [];
  for (const u of units) {
    const { step, spec } = u;
    if (step.type === 'bridge' && spec.kind === 'mint') {
      const burn = findSubTx(intent.results, step.index, 'burn');
      if (burn?.status !== 'confirmed') throw new ServiceError('INTERNAL_ERROR', 'Mint before a confirmed burn', { details: { step: step.index } });
      const attested = await ctx.chains.attest(step.from, burn.txHash);
      const request = stepRequest(step, 'mint', { attested });
      if (request.kind === 'mint' && (await ctx.chains.messageReceived(request.chain, request.message)) !== null) return { observedMint: u };
      if (attested.feeExecuted !== undefined) arriving.set(step.index, toUnits(step.amount, 'USDC') - attested.feeExecuted);
      requests.push(request);
    } else if (step.type === 'deposit') {
      requests.push(stepRequest(step, spec.kind, { depositUnits: depositAmount(intent, step, arriving) }));
    } else {
      requests.push(stepRequest(step, spec.kind));
    }
  }
  return { requests };
}

/** The unit a failure of the operation is charged to: the failing call, or, unknown, the last (its own step fails; the others are sent again). */
function failingUnit(units: readonly ExecUnit[], index: number | undefined): number {
  return index !== undefined && index >= 0 && index < units.length ? index : units.length - 1;
}

/**
 * Runs `units` (sub-transactions of one or more steps, all on one `7702`
 * chain, in execution order) as ONE user operation, or resumes it when its
 * calls are recorded signed already: signed by the wallet's key, sponsored by the
 * paymaster, bundled by the gas tank (ChainPort.sendOperation). Persisted
 * (`opSigned`) before the bundle is broadcast; followed, rebroadcast and
 * replaced as any transaction (followTx, the bundle re-signed by the gas tank
 * at its nonce); never signed twice. Retries as runSubTx does: bounded before
 * signing, for as long as it takes once signed.
 *
 * Failure rules are the plain path's, per logical step: a call the
 * simulation says reverts fails its step with nothing signed, unless calls of
 * earlier steps precede it, which are then sent on their own first (a mint
 * is never held back by the deposit after it). A mined operation that failed
 * did nothing: its failing call is recorded `reverted` (opMined), the other
 * calls' records go, and the failing step fails once the calls before it
 * have run again without it.
 */
export async function runOperation(intent: Intent, units: readonly ExecUnit[], ctx: UnitContext): Promise<Intent> {
  const first = units[0];
  if (first === undefined) throw new ServiceError('INTERNAL_ERROR', 'An operation with no calls', { details: { intentId: intent.id } });
  const chain = first.spec.chain;
  const calls = units.map(callOf);
  let current = intent;
  const recordOf = (): SubTxRecord | undefined => findSubTx(current.results, first.step.index, first.spec.kind);

  const onSigned = async (signed: SignedOperation): Promise<void> => {
    throwIfAborted(ctx.signal);
    current = await ctx.commit({ type: 'opSigned', calls, tx: { chain, txHash: signed.txHash, raw: signed.raw, userOpHash: signed.userOpHash } });
  };
  const replace = async (record: SubTxRecord): Promise<SubTxRecord> => {
    await ctx.chains.replace('relayer', record, async (s) => {
      throwIfAborted(ctx.signal);
      current = await ctx.commit({ type: 'opReplaced', calls, bundleHash: record.txHash, tx: s });
    });
    return recordOf()!;
  };

  let receipt: TxReceipt;
  for (let attempt = 1; ; attempt++) {
    try {
      // Signed already (this try's send failed after persisting, or recovery): followed, never signed again.
      const recorded = recordOf();
      if (recorded !== undefined) {
        try {
          receipt = await followTx(recorded, ctx, replace);
          break;
        } catch (e) {
          // The gas tank's nonce went to another of its transactions: this bundle never landed, so its operation did nothing.
          if (!(e instanceof NonceConsumedError)) throw e;
        }
      }
      const prepared = await prepare(current, units, ctx);
      if ('observedMint' in prepared) return runSubTx(current, prepared.observedMint.step, prepared.observedMint.spec, ctx);
      const wallet = await ctx.keyVault.signer(current.walletId);
      await ctx.chains.sendOperation!(wallet, chain, prepared.requests, onSigned);
      receipt = await followTx(recordOf()!, ctx, replace);
      break;
    } catch (caught) {
      if (caught instanceof WouldRevertError) {
        const k = failingUnit(units, caught.callIndex ?? units.findIndex((u) => u.spec.kind === caught.kind));
        const failing = units[k]!;
        const ownFirst = units.findIndex((u) => u.step.index === failing.step.index);
        // The calls of the steps before the failing one go on their own; the failing step fails on the next turn.
        if (ownFirst > 0) return runOperation(current, units.slice(0, ownFirst), ctx);
        if (failing.spec.kind !== 'mint') {
          return failStep(
            current,
            failing.step,
            stepFailed(failing.step, `${failing.spec.kind} would revert (${caught.reason}); not sent`, {
              kind: failing.spec.kind,
              reason: caught.reason,
              simulated: true,
            }),
            ctx,
          );
        }
      }
      // A mint after a confirmed burn is never given up (as on the plain path): its would-revert is waited out.
      const e =
        caught instanceof WouldRevertError
          ? new ServiceError('BRIDGE_FAILED', `The mint on ${caught.chain} would revert (${caught.reason}); trying again`)
          : caught;
      if (!isTransient(e) && !(caught instanceof WouldRevertError)) throw caught;
      const inFlight = recordOf() !== undefined || units.some((u) => u.spec.kind === 'mint');
      const err = e instanceof ServiceError ? e : new ServiceError('NETWORK_ERROR', String(e));
      if (!inFlight && attempt >= ctx.retry.attempts) {
        const step = first.step;
        const reason = `user operation on ${chain} still failing after ${attempt} attempts (${err.message})`;
        return failStep(
          current,
          step,
          new ServiceError(err.code, `Step ${step.index + 1} (${step.type}) failed: ${reason}`, {
            details: { ...err.details, step: step.index + 1, type: step.type, attempts: attempt, txHash: null },
          }),
          ctx,
        );
      }
      const waitMs = backoffMs({ baseMs: ctx.retry.baseMs, maxMs: inFlight ? ctx.retry.inFlightMaxMs : ctx.retry.maxMs }, attempt);
      const nextAttemptAt = new Date(ctx.clock.now().getTime() + waitMs).toISOString();
      current = await ctx.commit({
        type: 'retryNoted',
        step: first.step.index,
        attempts: attempt,
        error: { code: err.code, message: err.message },
        nextAttemptAt,
      });
      await sleep(ctx.clock, waitMs, ctx.signal);
    }
  }

  ctx.onWalletActivity?.(current.walletId);
  ctx.onGasSpent?.(current, receipt.gasCostWei);
  const failedCall = receipt.status === 'success' ? 0 : failingUnit(units, receipt.operation?.failedCall ?? (units.length === 1 ? 0 : undefined));
  current = await ctx.commit({
    type: 'opMined',
    calls,
    receipt: {
      txHash: receipt.txHash,
      status: receipt.status,
      gasUsed: receipt.gasUsed,
      gasCostUsd: receipt.gasCostUsd,
      ...(receipt.minted !== undefined && { minted: receipt.minted }),
      ...(receipt.mintedEach !== undefined && { mintedEach: receipt.mintedEach }),
    },
    failedCall,
  });
  if (receipt.status === 'success') return current;
  const failing = units[failedCall]!;
  // The failing step's own calls start the operation: it fails now. Otherwise the calls before it run again first.
  if (units.findIndex((u) => u.step.index === failing.step.index) > 0) return current;
  const reason = receipt.operation?.reason ?? 'reverted';
  return failStep(
    current,
    failing.step,
    stepFailed(failing.step, `${failing.spec.kind} reverted in user operation (${reason})`, {
      kind: failing.spec.kind,
      txHash: receipt.txHash,
      ...(receipt.operation && { userOpHash: receipt.operation.userOpHash }),
    }),
    ctx,
  );
}
