import type { Principal } from '../../../src/app/accounts/principal';
import type { AppDeps } from '../../../src/app/deps';
import { cancelIntent } from '../../../src/app/intents/cancelIntent';
import { actorFor } from '../../../src/app/audit/recordAudit';
import type { SignedTx } from '../../../src/ports/chain';
import type { Intent } from '../../../src/domain/intent';
import { transition } from '../../../src/domain/intentStateMachine';
import { createHarness, usdc, type Harness } from './engineHarness';
import { deferred, flush } from './deferred';

/**
 * Cancellation on the engine harness (memory store, fake chain): a pending
 * intent is committed `cancelled` by the engine at once; for a running one
 * the engine records the request, the intent actor adopts it at its next
 * commit, and the executor stops before the next step with nothing signed; a
 * signed transaction is never abandoned. Each transition is reported (the
 * hook behind metrics and webhooks), audited and published once.
 */

const principal = { account: { id: 'acct_test', plan: 'pro', createdAt: '' }, keyId: 'key_test', scopes: ['read', 'write'], via: 'apiKey' } as Principal;

/** The sub-transactions an intent sent, as "step:kind:status". */
const sent = (i: Intent): string[] =>
  (i.results?.transactions ?? []).map((t) => {
    const r = t as typeof t & { step: number; kind: string; status: string };
    return `${r.step}:${r.kind}:${r.status}`;
  });

describe('engine: cancel', () => {
  let h: Harness;
  let deps: Pick<AppDeps, 'store' | 'engine'>;
  const transitions: string[] = [];
  /** Intents the final-state hook (what gives a reservation back) was told of. */
  const finals: string[] = [];
  /** The statuses the transition hook was told of for `intentId`, in order. */
  const told = (intentId: string): string[] => transitions.filter((t) => t.startsWith(`${intentId}:`)).map((t) => t.slice(intentId.length + 1));
  const audited = async (intentId: string) => h.store.auditLog.list('acct_test', { limit: 10, intentId });

  beforeEach(() => {
    transitions.length = 0;
    finals.length = 0;
    h = createHarness({
      feeBps: 5,
      engine: { onTransition: (i) => transitions.push(`${i.id}:${i.status}`), onFinal: (i) => void finals.push(`${i.id}:${i.status}`) },
    });
    deps = { store: h.store, engine: h.engine };
  });

  afterEach(async () => {
    await h.engine.stop();
  });

  /** Holds the first broadcast of `kind` until the returned release is called; resolves once it is held (signed and persisted). */
  function holdBroadcast(kind: string): { held: Promise<SignedTx>; release(): void } {
    const gate = deferred();
    const held = deferred<SignedTx>();
    let done = false;
    h.chain.beforeBroadcast = async (signed) => {
      if (done || signed.kind !== kind) return;
      done = true;
      held.resolve(signed);
      await gate.promise;
    };
    return { held: held.promise, release: () => gate.resolve() };
  }

  test('behavior: cancelled while the bridge is in flight → the bridge runs to its end (burn broadcast, minted), the deposit is never signed; cancelled with results saying the bridge completed', async () => {
    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('100'));
    const burn = holdBroadcast('burn');
    const intent = await h.submit(w.id, { amount: '100' });
    await burn.held;

    const requested = await cancelIntent(deps, actorFor(principal), intent.id);
    expect(requested.status).toBe('executing');
    expect(requested.cancelRequestedAt).toBeDefined();
    burn.release();
    const done = await h.settled(intent.id);

    expect(done.status).toBe('cancelled');
    expect(done.error).toBeUndefined();
    expect(done.cancelRequestedAt).toBe(requested.cancelRequestedAt);
    expect(done.completedAt).toBeDefined();
    expect(done.executionPlan?.steps.map((s) => [s.type, s.status])).toEqual([
      ['bridge', 'completed'],
      ['deposit', 'pending'],
    ]);
    expect(sent(done)).toEqual(['0:approve:confirmed', '0:burn:confirmed', '0:mint:confirmed']);
    expect(done.results?.completedSteps).toBe(1);
    expect(h.chain.signed.map((s) => s.kind)).not.toContain('supply');
    expect(h.chain.executed).toContain(h.chain.signed.find((s) => s.kind === 'burn')!.txHash);
    // funds stay where the last completed step left them: bridged, not deposited
    expect(h.chain.balance('base-sepolia', w.address, 'USDC')).toBe(usdc('99.95'));
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(0n);
    expect(await h.store.intents.get(intent.id)).toEqual(done);
    // asking again answers it as it is
    expect(await cancelIntent(deps, actorFor(principal), intent.id)).toEqual(done);
    // the engine ended it: one transition reported, one audit event, by the service itself
    expect(told(intent.id)).toEqual(['pending', 'planning', 'executing', 'cancelled']);
    const events = await audited(intent.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'intent.cancelled', actor: { type: 'system', id: null }, at: done.updatedAt, details: { completedSteps: 1 } });
  });

  test("behavior: a pending intent (queued behind the wallet's executing one) is cancelled at once and never planned; the first one completes", async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    const supply = holdBroadcast('supply');
    const first = await h.submit(w.id, { amount: '4' });
    await supply.held;
    const second = await h.submit(w.id, { amount: '5' });
    const seen: string[] = [];
    const off = h.engine.bus.listen({ intentId: second.id }, (i) => seen.push(i.status));

    const cancelled = await cancelIntent(deps, actorFor(principal), second.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', version: 1, executionPlan: null });
    expect(told(second.id)).toEqual(['pending', 'cancelled']);
    expect(seen).toEqual(['cancelled']);
    expect(finals).toEqual([`${second.id}:cancelled`]);
    // audited once, in the name of the key that cancelled it
    const events = await audited(second.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'intent.cancelled',
      actor: { type: 'apiKey', id: 'key_test' },
      at: cancelled.updatedAt,
      details: { completedSteps: 0 },
    });
    // asking again answers it as it is, and reports, audits or publishes nothing more
    expect(await cancelIntent(deps, actorFor(principal), second.id)).toEqual(cancelled);
    supply.release();
    expect((await h.settled(first.id)).status).toBe('completed');
    await flush();
    const stored = await h.store.intents.get(second.id);
    expect(stored).toMatchObject({ status: 'cancelled', version: 1 });
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('4'));
    expect(told(second.id)).toEqual(['pending', 'cancelled']);
    expect(seen).toEqual(['cancelled']);
    expect(await audited(second.id)).toHaveLength(1);
    expect(finals).toEqual([`${second.id}:cancelled`, `${first.id}:completed`]);
    off();
  });

  /** Lets another writer commit `theirs` just before the engine's next write of the intent (which then meets VERSION_CONFLICT), once. */
  function raceNextWrite(theirs: Intent): { raced: () => boolean } {
    const repo = h.store.intents;
    const update = repo.update.bind(repo);
    let raced = false;
    repo.update = async (intent, expected) => {
      if (!raced && intent.id === theirs.id) {
        raced = true;
        await update(theirs, theirs.version - 1);
      }
      return update(intent, expected);
    };
    return { raced: () => raced };
  }

  /** A stored intent of the harness's account on `walletId`, never handed to the engine. */
  async function storedIntent(id: string, walletId: string, status: 'pending' | 'planning'): Promise<Intent> {
    const now = h.clock.now().toISOString();
    const pending: Intent = {
      id,
      accountId: 'acct_test',
      walletId,
      status: 'pending',
      action: 'lend',
      amount: '1',
      requestedAmount: '1',
      asset: 'USDC',
      executionPlan: null,
      createdAt: now,
      updatedAt: now,
      version: 0,
    };
    const intent = status === 'pending' ? pending : transition(pending, { type: 'plan' }, h.clock.now());
    await h.store.intents.insert(intent);
    return intent;
  }

  test('behavior: a cancel request that loses a race with an engine commit (VERSION_CONFLICT) is written again on the newer version, not lost', async () => {
    const w = await h.wallet();
    const planning = await storedIntent('intent_race0001', w.id, 'planning');
    const race = raceNextWrite({ ...planning, version: planning.version + 1, updatedAt: new Date(h.clock.now().getTime() + 1).toISOString() });
    const requested = await cancelIntent(deps, actorFor(principal), planning.id);
    expect(race.raced()).toBe(true);
    expect(requested).toMatchObject({ status: 'planning', version: planning.version + 2 });
    expect((await h.store.intents.get(planning.id))?.cancelRequestedAt).toBe(requested.cancelRequestedAt);
    // a request changes no status: nothing is reported or audited
    expect(told(planning.id)).toEqual([]);
    expect(await audited(planning.id)).toEqual([]);
  });

  test("behavior: a pending intent planned by the engine between the cancel's read and its commit → the lost commit reports, audits and publishes nothing; the cancel is recorded as a request on the planning intent", async () => {
    const w = await h.wallet();
    const pending = await storedIntent('intent_race0002', w.id, 'pending');
    const seen: string[] = [];
    const off = h.engine.bus.listen({ intentId: pending.id }, (i) => seen.push(i.status));
    const race = raceNextWrite(transition(pending, { type: 'plan' }, h.clock.now()));
    const requested = await cancelIntent(deps, actorFor(principal), pending.id);
    expect(race.raced()).toBe(true);
    expect(requested).toMatchObject({ status: 'planning', version: 2 });
    expect(requested.cancelRequestedAt).toBeDefined();
    expect(await h.store.intents.get(pending.id)).toEqual(requested);
    expect(told(pending.id)).toEqual([]);
    expect(seen).toEqual([]);
    expect(finals).toEqual([]);
    expect(await audited(pending.id)).toEqual([]);
    off();
  });

  test("error: a completed intent is 409 INTENT_NOT_CANCELLABLE and stays completed; another account's is INTENT_NOT_FOUND", async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('3'));
    const intent = await h.submit(w.id, { amount: '3' });
    const done = await h.settled(intent.id);
    expect(done.status).toBe('completed');
    await expect(cancelIntent(deps, actorFor(principal), intent.id)).rejects.toMatchObject({
      code: 'INTENT_NOT_CANCELLABLE',
      details: { intentId: intent.id, status: 'completed' },
    });
    expect(await h.store.intents.get(intent.id)).toEqual(done);
    const other = { ...principal, account: { ...principal.account, id: 'acct_other' } } as Principal;
    await expect(cancelIntent(deps, actorFor(other), intent.id)).rejects.toMatchObject({ code: 'INTENT_NOT_FOUND' });
  });
});
