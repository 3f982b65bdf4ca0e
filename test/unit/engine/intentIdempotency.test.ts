import { IDEMPOTENCY_LEASE_MS } from '../../../src/app/idempotency';
import { usdc } from './engineHarness';
import { pollFinal, startIntentsServer, type IntentsServer } from './intentsServer';

/**
 * An Idempotency-Key names one intent even when the first attempt fails
 * after storing it: the engine's hand-off or the recording of the answer
 * throwing must not let a retry create a second intent.
 */
describe('Idempotency-Key after the intent is stored', () => {
  let s: IntentsServer;
  let key: string;

  beforeAll(async () => {
    s = await startIntentsServer();
    ({ key } = await s.account('pro'));
  });
  afterAll(async () => {
    await s?.stop();
  });

  async function fundedWallet(): Promise<string> {
    const w = await s.wallet(key);
    s.chain.fund('base-sepolia', w.address, 'USDC', usdc('100'));
    return w.id;
  }
  const intentsOf = async (walletId: string) => s.deps.store.intents.listByWallet(walletId, { limit: 10 });

  test("error: the engine's hand-off throws after the insert → still 201 with the stored intent; a retry replays it, and it is the only one", async () => {
    const walletId = await fundedWallet();
    const engine = s.deps.engine;
    const submit = engine.submit.bind(engine);
    let failed = false;
    engine.submit = async (intent) => {
      if (!failed) {
        failed = true;
        throw new Error('lease store unreachable');
      }
      return submit(intent);
    };
    try {
      const headers = { 'Idempotency-Key': `handoff-${walletId}` };
      const body = { walletId, action: 'lend', amount: '10' };
      const first = await s.rest('POST', '/v1/intents', key, body, headers);
      expect(first.status).toBe(201);
      const retry = await s.rest('POST', '/v1/intents', key, body, headers);
      expect(retry.status).toBe(201);
      expect(retry.body.id).toBe(first.body.id);
      expect((await intentsOf(walletId)).map((i) => i.id)).toEqual([first.body.id]);
    } finally {
      engine.submit = submit;
    }
  });

  test('error: recording the answer throws after the insert → the key stays held (409), and the retry that takes a dead first attempt over answers the first intent', async () => {
    const walletId = await fundedWallet();
    const idem = s.deps.store.idempotency;
    const complete = idem.complete.bind(idem);
    let failed = false;
    idem.complete = async (...args) => {
      if (!failed) {
        failed = true;
        throw new Error('store write timed out');
      }
      return complete(...args);
    };
    const clock = s.deps.clock;
    try {
      const headers = { 'Idempotency-Key': `record-${walletId}` };
      const body = { walletId, action: 'lend', amount: '10' };
      const first = await s.rest('POST', '/v1/intents', key, body, headers);
      expect(first.status).toBe(201);
      const early = await s.rest('POST', '/v1/intents', key, body, headers);
      expect(early.status).toBe(409);
      expect(early.body.error).toBe('IDEMPOTENCY_CONFLICT');
      // the first holder's lease has run out, as if it had died there
      s.deps.clock = { now: () => new Date(Date.now() + IDEMPOTENCY_LEASE_MS + 1_000) };
      const retry = await s.rest('POST', '/v1/intents', key, body, headers);
      expect(retry.status).toBe(201);
      expect(retry.body.id).toBe(first.body.id);
      const replay = await s.rest('POST', '/v1/intents', key, body, headers);
      expect(replay.body.id).toBe(first.body.id);
      expect((await intentsOf(walletId)).map((i) => i.id)).toEqual([first.body.id]);
      expect((await pollFinal(s, key, first.body.id)).body.status).toBe('completed');
    } finally {
      idem.complete = complete;
      s.deps.clock = clock;
    }
  });
});
