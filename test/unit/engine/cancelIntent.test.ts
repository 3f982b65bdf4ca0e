import type { Principal } from '../../../src/app/accounts/principal';
import type { AppDeps } from '../../../src/app/deps';
import { cancelIntent } from '../../../src/app/intents/cancelIntent';
import type { SignedTx } from '../../../src/ports/chain';
import type { Intent } from '../../../src/domain/intent';
import { transition } from '../../../src/domain/intentStateMachine';
import { createHarness, usdc, type Harness } from './engineHarness';
import { deferred, flush } from './deferred';

/**
 * Cancellation at the engine's step boundary (issue 13 item 3), on the
 * engine harness (memory store, fake chain): the use-case records the
 * request, the intent actor adopts it at its next commit, and the executor
 * stops before the next step with nothing signed; a signed transaction is
 * never abandoned.
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
  let deps: Pick<AppDeps, 'store' | 'clock' | 'engine' | 'logger' | 'onIntentTransition'>;
  const transitions: string[] = [];

  beforeEach(() => {
    h = createHarness({ feeBps: 5 });
    transitions.length = 0;
    deps = { store: h.store, clock: h.clock, engine: h.engine, onIntentTransition: (i) => transitions.push(`${i.id}:${i.status}`) };
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

    const requested = await cancelIntent(deps, principal, intent.id);
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
    expect(await cancelIntent(deps, principal, intent.id)).toEqual(done);
  });

  test('behavior: a pending intent (queued behind the wallet\'s executing one) is cancelled at once and never planned; the first one completes', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    const supply = holdBroadcast('supply');
    const first = await h.submit(w.id, { amount: '4' });
    await supply.held;
    const second = await h.submit(w.id, { amount: '5' });
    const seen: string[] = [];
    const off = h.engine.bus.listen({ intentId: second.id }, (i) => seen.push(i.status));

    const cancelled = await cancelIntent(deps, principal, second.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', version: 1, executionPlan: null });
    expect(transitions).toEqual([`${second.id}:cancelled`]);
    expect(seen).toEqual(['cancelled']);
    supply.release();
    expect((await h.settled(first.id)).status).toBe('completed');
    await flush();
    const stored = await h.store.intents.get(second.id);
    expect(stored).toMatchObject({ status: 'cancelled', version: 1 });
    expect(h.chain.position('base-sepolia', w.address, 'aave-v3', 'USDC')).toBe(usdc('4'));
    off();
  });

  test('behavior: a cancel request that loses a race with an engine commit (VERSION_CONFLICT) is written again on the newer version, not lost', async () => {
    const w = await h.wallet();
    const now = h.clock.now().toISOString();
    const planning: Intent = transition(
      { id: 'intent_race0001', accountId: 'acct_test', walletId: w.id, status: 'pending', action: 'lend', amount: '1', requestedAmount: '1', asset: 'USDC', executionPlan: null, createdAt: now, updatedAt: now, version: 0 },
      { type: 'plan' },
      h.clock.now(),
    );
    await h.store.intents.insert(planning);
    // the engine commits between the use-case's read and its write, once
    const update = h.store.intents.update.bind(h.store.intents);
    let raced = false;
    const store = {
      ...h.store,
      intents: {
        ...h.store.intents,
        get: h.store.intents.get.bind(h.store.intents),
        async update(intent: Intent, expected: number) {
          if (!raced) {
            raced = true;
            await update({ ...planning, version: planning.version + 1, updatedAt: new Date(Date.parse(now) + 1).toISOString() }, planning.version);
          }
          return update(intent, expected);
        },
      },
    };
    const requested = await cancelIntent({ ...deps, store }, principal, planning.id);
    expect(raced).toBe(true);
    expect(requested).toMatchObject({ status: 'planning', version: planning.version + 2 });
    expect((await h.store.intents.get(planning.id))?.cancelRequestedAt).toBe(requested.cancelRequestedAt);
  });

  test('error: a completed intent is 409 INTENT_NOT_CANCELLABLE and stays completed; another account\'s is INTENT_NOT_FOUND', async () => {
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('3'));
    const intent = await h.submit(w.id, { amount: '3' });
    const done = await h.settled(intent.id);
    expect(done.status).toBe('completed');
    await expect(cancelIntent(deps, principal, intent.id)).rejects.toMatchObject({ code: 'INTENT_NOT_CANCELLABLE', details: { intentId: intent.id, status: 'completed' } });
    expect(await h.store.intents.get(intent.id)).toEqual(done);
    const other = { ...principal, account: { ...principal.account, id: 'acct_other' } } as Principal;
    await expect(cancelIntent(deps, other, intent.id)).rejects.toMatchObject({ code: 'INTENT_NOT_FOUND' });
  });
});
