import type { Hex } from 'viem';
import { ServiceError } from '../../domain/errors/base';
import type { Intent, Step } from '../../domain/intent';
import { NonceConsumedError, WouldRevertError, type SignedTx, type TxReceipt, type TxSigner } from '../../ports/chain';
import { sleep, throwIfAborted } from '../abort';
import type { UnitContext } from '../unitContext';
import { followTx } from './followTx';
import { withIdleFunds } from './rebalanceIdle';
import { backoffMs, isTransient } from '../retry';
import { stepFailed } from './stepFailure';
import { buildRequest, leftoverAllowance } from './subTransactions';
import type { SubTxSpec } from '../stepRequests';
import { findSubTx, isSubTxRecord, type SubTxRecord } from '../../domain/txRecords';
import type { IntentEvent } from '../../domain/intentStateMachine';

/** The step as the intent now has it (its status and txHash move while it runs). */
export function stepOf(intent: Intent, index: number): Step {
  const step = intent.executionPlan?.steps[index];
  if (step === undefined) throw new ServiceError('INTERNAL_ERROR', `Intent ${intent.id} has no step ${index}`, { details: { intentId: intent.id } });
  return step;
}

/** The step without the fields of a retry in progress (attempts, lastError, nextAttemptAt). */
function settled(step: Step): Step {
  const { attempts: _a, lastError: _l, nextAttemptAt: _n, ...rest } = step;
  return rest as Step;
}

/**
 * One sub-transaction of a step on its way to a receipt. `intent` follows
 * every commit (a record persisted at signing, a replacement, a retry note).
 */
class SubTxRun {
  constructor(
    public intent: Intent,
    readonly step: Step,
    readonly spec: SubTxSpec,
    readonly ctx: UnitContext,
  ) {}

  /** The outcome is a transaction someone else sent (a relayed mint). */
  observedOnly = false;

  get record(): SubTxRecord | undefined {
    return findSubTx(this.intent.results, this.step.index, this.spec.kind);
  }

  private now = (): string => this.ctx.clock.now().toISOString();

  private signer(): Promise<TxSigner> | TxSigner {
    return this.spec.signer === 'relayer' ? 'relayer' : this.ctx.keyVault.signer(this.intent.walletId);
  }

  /** Persists freshly signed bytes before the port broadcasts them; after a stop nothing may be broadcast without a record. */
  private commitSigned = async (signed: SignedTx, replacing: boolean): Promise<void> => {
    throwIfAborted(this.ctx.signal);
    const { step, spec } = this;
    const event: IntentEvent = replacing
      ? { type: 'txReplaced', step: step.index, tx: signed, main: spec.main }
      : spec.kind === 'revoke'
        ? { type: 'revokeSigned', step: step.index, tx: signed }
        : { type: 'txSigned', step: step.index, tx: signed, main: spec.main };
    this.intent = await this.ctx.commit(event);
  };

  private replace = async (record: SubTxRecord): Promise<SubTxRecord> => {
    const signer = await this.signer();
    await this.ctx.chains.replace(signer, record, (s) => this.commitSigned(s, true));
    return this.record!;
  };

  /** Records a mint someone else sent for our burn (the message was received): it is the outcome, nothing is signed. */
  private async observed(txHash: Hex): Promise<TxReceipt> {
    this.observedOnly = true;
    const receipt = await this.ctx.chains.findReceipt(this.spec.chain, [txHash], 0);
    if (receipt === null)
      throw new ServiceError('NETWORK_ERROR', `The mint ${txHash} on ${this.spec.chain} has no receipt yet`, { details: { chain: this.spec.chain } });
    this.intent = await this.ctx.commit({ type: 'txObserved', step: this.step.index, kind: this.spec.kind, chain: this.spec.chain, txHash });
    return receipt;
  }

  /**
   * One try: follow the persisted transaction to its receipt, or, when there
   * is none (or its nonce went to another transaction, so it did nothing),
   * sign and send it, then follow it. A mint first asks the destination
   * whether the message was received already: one burn is minted once.
   */
  async once(): Promise<TxReceipt> {
    const { ctx, step, spec } = this;
    const recorded = this.record;
    if (recorded !== undefined) {
      try {
        return await followTx(recorded, ctx, this.replace);
      } catch (e) {
        if (!(e instanceof NonceConsumedError)) throw e;
      }
    }
    const request = await buildRequest(this.intent, step, spec, ctx.chains);
    if (request.kind === 'mint') {
      const by = await ctx.chains.messageReceived(request.chain, request.message);
      if (by !== null) return this.observed(by);
    }
    const signer = await this.signer();
    // A gas top-up is the gas tank's money spent for this account, whatever becomes of the transaction.
    const toppedUp = (wei: bigint) => ctx.onGasSpent?.(this.intent, wei);
    await ctx.chains.send(signer, request, (s) => this.commitSigned(s, false), toppedUp);
    const record = this.record;
    if (record === undefined) throw new ServiceError('INTERNAL_ERROR', 'The chain port sent a transaction without handing it over signed');
    return followTx(record, ctx, this.replace);
  }

  /** Shows on the step that it keeps trying, and when it tries next (subscribers see each note). */
  async note(attempt: number, e: ServiceError, waitMs: number): Promise<void> {
    const nextAttemptAt = new Date(this.ctx.clock.now().getTime() + waitMs).toISOString();
    this.intent = await this.ctx.commit({
      type: 'retryNoted',
      step: this.step.index,
      attempts: attempt,
      error: { code: e.code, message: e.message },
      nextAttemptAt,
    });
  }

  /** Records the receipt (a retry note on the step is cleared): the receipt event of its kind and outcome. */
  async commitReceipt(receipt: TxReceipt): Promise<void> {
    const { step, spec } = this;
    const event: IntentEvent =
      spec.kind === 'revoke'
        ? { type: 'revokeMined', step: step.index, receipt }
        : { type: receipt.status === 'success' ? 'txConfirmed' : 'txReverted', step: step.index, receipt, main: spec.main };
    this.intent = await this.ctx.commit(event);
  }
}

/**
 * Takes back an allowance a failed step leaves standing (approve confirmed,
 * its spend not): one `revoke` (approve to 0), persisted and followed like
 * every sub-transaction. Before it is signed the retries are bounded: when
 * the node keeps failing, the intent fails all the same with no revoke. Once
 * signed it is followed to its receipt like any transaction in flight (waits
 * capped at `retry.inFlightMaxMs`, never giving up), so the intent never
 * ends with a signed transaction nobody follows; a fault that is not
 * transient goes up, and the engine resumes the intent from its record.
 */
async function revokeLeftover(intent: Intent, step: Step, ctx: UnitContext): Promise<Intent> {
  const spec = leftoverAllowance(step, intent.results);
  if (spec === null) return intent;
  const run = new SubTxRun(intent, step, spec, ctx);
  for (let attempt = 1; ; attempt++) {
    try {
      const receipt = await run.once();
      ctx.onGasSpent?.(intent, receipt.gasCostWei);
      await run.commitReceipt(receipt);
      return run.intent;
    } catch (e) {
      const inFlight = run.record !== undefined;
      if (inFlight && !isTransient(e)) throw e;
      if (!inFlight && (!isTransient(e) || attempt >= ctx.retry.attempts)) return run.intent;
      await sleep(ctx.clock, backoffMs({ baseMs: ctx.retry.baseMs, maxMs: inFlight ? ctx.retry.inFlightMaxMs : ctx.retry.maxMs }, attempt), ctx.signal);
    }
  }
}

/**
 * Fails the intent at `step` with `error`; `results.failedStep` is the
 * 1-based position, `completedSteps` is kept. An allowance the step left
 * standing is revoked first. A rebalance's error says where its funds now
 * sit idle.
 */
export async function failStep(intent: Intent, step: Step, error: ServiceError, ctx: UnitContext): Promise<Intent> {
  let current = await revokeLeftover(intent, step, ctx);
  if (ctx.beforeFail) current = await ctx.beforeFail(current, step);
  // Settling what a burn owed can end the intent on its own (a mint that reverted on chain).
  if (current.status !== 'executing') return current;
  return ctx.commit({
    type: 'fail',
    error: withIdleFunds(current, error).toJSON(),
    failedStep: step.index + 1,
    step: { ...settled(stepOf(current, step.index)), status: 'failed', completedAt: ctx.clock.now().toISOString() },
  });
}

/**
 * A key provider that does not answer (a token's session lost, a network HSM
 * down) once the intent has signed anything: waited out for as long as it
 * takes, as a transaction in flight is, so the intent never fails half-way
 * because its keys were out of reach (docs/decisions.md, "key provider").
 * Before the first signature the retries stay bounded: the intent fails with
 * nothing moved.
 */
function tokenOutageAfterSigning(intent: Intent, e: ServiceError): boolean {
  return e.details.service === 'keyProvider' && (intent.results?.transactions ?? []).some(isSubTxRecord);
}

/** The error a sub-transaction waits out and notes on its step, or null when it goes up: transient node and service trouble. */
function waitable(e: unknown): ServiceError | null {
  return isTransient(e) && e instanceof ServiceError ? e : null;
}

/**
 * What a mint after a confirmed burn waits out: burned means minted, so
 * besides transient trouble, the node's would-revert (an attestation whose
 * expirationBlock passed: the next try re-attests) and a refusal of the
 * attestation service are noted on the step and tried again, never given up.
 */
function mintWaitable(e: unknown): ServiceError | null {
  if (e instanceof WouldRevertError) {
    return new ServiceError('BRIDGE_FAILED', `The mint on ${e.chain} would revert (${e.reason}); trying again`, {
      details: { chain: e.chain, kind: e.kind, reason: e.reason },
    });
  }
  if (e instanceof ServiceError && e.code === 'BRIDGE_FAILED' && e.details.service === 'attestation') return e;
  return waitable(e);
}

/**
 * Runs one sub-transaction of `step` to its receipt. Unsent: signs and sends
 * it, persisting it in `onSigned` before the port broadcasts. Already signed
 * (a retry, or recovery): followed to its receipt and never signed again
 * (followTx rebroadcasts and replaces it when it is stuck). Transient errors
 * are retried with back-off, each try noted on the step. Before anything is
 * signed, the retries are bounded and their end fails the step; once a
 * transaction is in flight, and for a mint after a confirmed burn, they go on
 * for as long as it takes (waits capped at `retry.inFlightMaxMs`); a mint
 * also waits out a would-revert and a refusal of the attestation service
 * (`mintWaitable`), each try noted on the step. Only a
 * mined revert, or a node refusing a doomed transaction before signing, fails
 * the step for the chain's reasons.
 */
export async function runSubTx(intent: Intent, step: Step, spec: SubTxSpec, ctx: UnitContext): Promise<Intent> {
  const run = new SubTxRun(intent, step, spec, ctx);
  let receipt: TxReceipt;
  for (let attempt = 1; ; attempt++) {
    try {
      receipt = await run.once();
      break;
    } catch (caught) {
      // The node says it would revert: nothing was signed or spent, and the step fails with its domain code.
      // Never at a mint, whose burn is confirmed: that one is waited out below (mintWaitable).
      if (caught instanceof WouldRevertError && spec.kind !== 'mint') {
        return failStep(
          run.intent,
          step,
          stepFailed(step, `${spec.kind} would revert (${caught.reason}); not sent`, { kind: spec.kind, reason: caught.reason, simulated: true }),
          ctx,
        );
      }
      const e = spec.kind === 'mint' ? mintWaitable(caught) : waitable(caught);
      if (e === null) throw caught;
      const inFlight = run.record !== undefined || spec.kind === 'mint' || tokenOutageAfterSigning(run.intent, e);
      if (!inFlight && attempt >= ctx.retry.attempts) {
        const reason = `${spec.kind} on ${spec.chain} still failing after ${attempt} attempts (${e.message})`;
        const error = new ServiceError(e.code, `Step ${step.index + 1} (${step.type}) failed: ${reason}`, {
          details: { ...e.details, step: step.index + 1, type: step.type, kind: spec.kind, attempts: attempt, txHash: null },
        });
        return failStep(run.intent, step, error, ctx);
      }
      const waitMs = backoffMs({ baseMs: ctx.retry.baseMs, maxMs: inFlight ? ctx.retry.inFlightMaxMs : ctx.retry.maxMs }, attempt);
      await run.note(attempt, e, waitMs);
      await sleep(ctx.clock, waitMs, ctx.signal);
    }
  }

  ctx.onWalletActivity?.(intent.walletId);
  // A mint someone else relayed for our burn cost this account nothing.
  if (!run.observedOnly) ctx.onGasSpent?.(intent, receipt.gasCostWei);
  await run.commitReceipt(receipt);
  if (receipt.status === 'reverted') {
    return failStep(run.intent, step, stepFailed(step, `${spec.kind} transaction reverted`, { kind: spec.kind, txHash: receipt.txHash }), ctx);
  }
  return run.intent;
}
