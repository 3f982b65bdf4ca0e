import { ServiceError } from '../../domain/errors/base';
import { timeoutError } from '../../domain/errors/chain';
import { emptyResults, type Intent, type IntentResults, type Step } from '../../domain/intent';
import { NonceConsumedError, WouldRevertError, type SignedTx, type TxReceipt, type TxSigner } from '../../chain/port';
import { throwIfAborted, untilAborted } from '../abort';
import type { UnitContext } from '../unitContext';
import { isTransient, withRetry } from './retry';
import { stepFailed } from './stepFailure';
import { buildRequest, type SubTxSpec } from './subTransactions';
import { findSubTx, withReceipt, withSigned, type SubTxRecord } from './txRecords';

/** The step as the intent now has it (its status and txHash move while it runs). */
export function stepOf(intent: Intent, index: number): Step {
  const step = intent.executionPlan?.steps[index];
  if (step === undefined) throw new ServiceError('INTERNAL_ERROR', `Intent ${intent.id} has no step ${index}`, { details: { intentId: intent.id } });
  return step;
}

/** Fails the intent at `step` with `error`; `results.failedStep` is the 1-based position, `completedSteps` is kept. */
export function failStep(intent: Intent, step: Step, error: ServiceError, ctx: UnitContext, results?: IntentResults): Promise<Intent> {
  return ctx.commit({
    type: 'fail',
    error: error.toJSON(),
    results,
    failedStep: step.index + 1,
    step: { ...stepOf(intent, step.index), status: 'failed', completedAt: ctx.clock.now().toISOString() },
  });
}

/** The receipt of a persisted sub-transaction; a hash the chain does not know is rebroadcast from its raw bytes first. */
async function confirm(record: SubTxRecord, ctx: UnitContext): Promise<TxReceipt> {
  const { chains, signal } = ctx;
  let receipt = await untilAborted(chains.receipt(record.chain, record.txHash), signal);
  if (receipt === null) {
    await untilAborted(chains.rebroadcast(record.chain, record.raw), signal);
    receipt = await untilAborted(chains.receipt(record.chain, record.txHash), signal);
  }
  if (receipt === null) throw timeoutError(record.chain, new Error(`transaction ${record.txHash} unknown after rebroadcast`));
  return receipt;
}

/**
 * Runs one sub-transaction of `step` to its receipt. Unsent: signs and sends
 * it, persisting {kind, chain, txHash, raw} in `onSigned` before the port
 * broadcasts. Already signed (a retry, or recovery): resumed from its receipt
 * and never signed again. Transient errors are retried with back-off; a
 * revert fails the intent at this step, and so do transient errors beyond the
 * last try while nothing is in flight (otherwise they propagate: see below).
 */
export async function runSubTx(intent: Intent, step: Step, spec: SubTxSpec, ctx: UnitContext): Promise<Intent> {
  const { chains, signal } = ctx;
  let current = intent;
  const onSigned = async (signed: SignedTx): Promise<void> => {
    // after a stop nothing may be broadcast without a record: refusing here keeps the port from broadcasting
    throwIfAborted(signal);
    const now = stepOf(current, step.index);
    current = await ctx.commit({
      type: 'progress',
      step: spec.main ? { ...now, txHash: signed.txHash } : undefined,
      results: withSigned(current.results ?? emptyResults(), step.type, step.index, signed),
    });
  };

  let receipt: TxReceipt;
  try {
    receipt = await withRetry(
      async () => {
        const recorded = findSubTx(current.results, step.index, spec.kind);
        if (recorded !== undefined) {
          try {
            return await confirm(recorded, ctx);
          } catch (e) {
            // Never mined and its nonce taken by another transaction: it did nothing, so it is signed
            // again below (the new record replaces this one); anything else propagates.
            if (!(e instanceof NonceConsumedError)) throw e;
          }
        }
        const request = await untilAborted(buildRequest(current, step, spec, chains), signal);
        const signer: TxSigner = spec.signer === 'relayer' ? 'relayer' : await ctx.keyVault.signer(intent.walletId);
        await untilAborted(chains.send(signer, request, onSigned), signal);
        const record = findSubTx(current.results, step.index, spec.kind);
        if (record === undefined) throw new ServiceError('INTERNAL_ERROR', 'The chain port sent a transaction without handing it over signed');
        return confirm(record, ctx);
      },
      { policy: ctx.retry, clock: ctx.clock, signal },
    );
  } catch (e) {
    // The node says it would revert: nothing was signed or spent, and the step fails with its domain code.
    // Never at a mint, whose burn is confirmed: that one goes up and is retried (burned means minted).
    if (e instanceof WouldRevertError && spec.kind !== 'mint') {
      return failStep(current, step, stepFailed(step, `${spec.kind} would revert (${e.reason}); not sent`, { kind: spec.kind, reason: e.reason, simulated: true }), ctx);
    }
    if (!isTransient(e) || !(e instanceof ServiceError)) throw e;
    const record = findSubTx(current.results, step.index, spec.kind);
    // Exhausting the retries may fail the step only while nothing is in flight: not with a signed
    // transaction that may still land, and never for a mint, whose burn is confirmed (burned means
    // minted). Those errors go up, the intent stays open and the engine runs it again later.
    if (record !== undefined || spec.kind === 'mint') throw e;
    const reason = `${spec.kind} on ${spec.chain} still failing after ${ctx.retry.attempts} attempts (${e.message})`;
    const error = new ServiceError(e.code, `Step ${step.index + 1} (${step.type}) failed: ${reason}`, {
      details: { ...e.details, step: step.index + 1, type: step.type, kind: spec.kind, attempts: ctx.retry.attempts, txHash: null },
    });
    return failStep(current, step, error, ctx);
  }

  const results = withReceipt(current.results ?? emptyResults(), receipt);
  ctx.onWalletActivity?.(intent.walletId);
  ctx.onGasSpent?.(intent, receipt.gasCostWei);
  if (receipt.status === 'reverted') {
    return failStep(current, step, stepFailed(step, `${spec.kind} transaction reverted`, { kind: spec.kind, txHash: receipt.txHash }), ctx, results);
  }
  return ctx.commit({ type: 'progress', results });
}
