import { createHarness, usdc, type Harness } from './engineHarness';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import type { EngineLogger } from '../../../src/engine/engineLogger';
import { AutoClock } from './autoClock';

/** The engine records an intent's final transition in the audit log, once, with the service as actor; a failed append never disturbs the intent. */
describe('engine: audit events of final transitions', () => {
  let h: Harness;

  afterEach(async () => {
    await h.engine.stop();
  });

  test('behavior: a completed lend is one intent.completed event by the system, at the transition, with finalAmount and apy only', async () => {
    h = createHarness();
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('20'));
    const done = await h.settled((await h.submit(w.id, { amount: '20' })).id);
    expect(done.status).toBe('completed');
    const events = await h.store.auditLog.list('acct_test', { limit: 10 });
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^svc_audit_[0-9a-f]{32}$/),
        accountId: 'acct_test',
        at: done.updatedAt,
        type: 'intent.completed',
        actor: { type: 'system', id: null },
        subject: { walletId: w.id, intentId: done.id },
        details: { action: 'lend', asset: 'USDC', finalAmount: '20', apy: 4.2 },
      },
    ]);
  });

  test('behavior: a reverted supply is one intent.failed event with the error code, message and failed step (not the error details)', async () => {
    h = createHarness();
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    h.chain.revertNext('supply');
    const done = await h.settled((await h.submit(w.id, { amount: '10' })).id);
    expect(done.status).toBe('failed');
    const events = await h.store.auditLog.list('acct_test', { limit: 10, intentId: done.id });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'intent.failed', actor: { type: 'system', id: null }, at: done.updatedAt });
    expect(events[0]!.details).toEqual({ action: 'lend', code: 'DEPOSIT_FAILED', message: done.error!.message, failedStep: 1 });
  });

  test('behavior: a planning failure (no funds) is recorded without a failed step', async () => {
    h = createHarness();
    const w = await h.wallet();
    const done = await h.settled((await h.submit(w.id, { amount: '10' })).id);
    expect(done.error?.code).toBe('INSUFFICIENT_FUNDS');
    const [event] = await h.store.auditLog.list('acct_test', { limit: 10, intentId: done.id });
    expect(event!.details).toEqual({ action: 'lend', code: 'INSUFFICIENT_FUNDS', message: done.error!.message });
  });

  test('error: an audit log that refuses every append: the intent still completes, is stored and published; the loss is a warning', async () => {
    const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
    const logger: EngineLogger = { info: () => undefined, error: () => undefined, warn: (obj, msg) => warnings.push({ obj, msg }) };
    const clock = new AutoClock();
    const store = createMemoryStore(clock);
    store.auditLog = { append: () => Promise.reject(new Error('audit store down')), list: store.auditLog.list };
    h = createHarness({ store, engine: { logger } });
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('5'));
    const done = await h.settled((await h.submit(w.id, { amount: '5' })).id);
    expect(done.status).toBe('completed');
    expect((await h.store.intents.get(done.id))?.status).toBe('completed');
    expect(warnings).toEqual([
      { obj: expect.objectContaining({ intentId: done.id, type: 'intent.completed' }), msg: 'audit event not recorded; the intent stands' },
    ]);
  });
});
