import { parseUnits } from 'viem';
import { pollFinal, startIntentsServer, type IntentsServer } from '../engine/intentsServer';

/** The per-account gas budget over HTTP, on the fake chain (each receipt costs gasUsed × 1 gwei). */
let s: IntentsServer;
beforeAll(async () => {
  // 300,000 gwei: a lend is expected to need 281,600 (TYPICAL_GAS approve + supply at the fake chain's 1 gwei) and spends 226,000
  s = await startIntentsServer({ gasBudgetWei: 300_000n * 1_000_000_000n });
});
afterAll(async () => {
  await s?.stop();
});

test("error: once an account's gas over 24 h reaches GAS_BUDGET_PER_ACCOUNT, POST /v1/intents and createIntent are 429 GAS_BUDGET_EXCEEDED and nothing is stored or started", async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  s.chain.fund('base-sepolia', w.address, 'USDC', parseUnits('10', 6));
  const first = await s.rest('POST', '/v1/intents', key, { walletId: w.id, action: 'lend', amount: 2, chain: 'base-sepolia' });
  expect(first.status).toBe(201);
  const done = (await pollFinal(s, key, first.body.id)).body;
  expect(done.status).toBe('completed');
  await new Promise((r) => setTimeout(r, 20)); // the spend is recorded after each receipt

  const refused = await s.rest('POST', '/v1/intents', key, { walletId: w.id, action: 'lend', amount: 2, chain: 'base-sepolia' });
  expect(refused.status).toBe(429);
  expect(refused.body).toMatchObject({ error: 'GAS_BUDGET_EXCEEDED', details: { budgetEth: '0.0003', windowHours: 24 } });
  expect(Number(refused.body.details.spentEth)).toBeGreaterThan(0);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  const gql = await s.gql('mutation($w: ID!) { createIntent(input: {walletId: $w, action: LEND, amount: "2", chain: BASE_SEPOLIA}) { id } }', { w: w.id }, key);
  expect(gql.body.errors[0].extensions.code).toBe('GAS_BUDGET_EXCEEDED');
  const list = await s.rest('GET', `/v1/intents?walletId=${w.id}`, key);
  expect(list.body.intents).toHaveLength(1);

  // Another account is not affected.
  const other = await s.account('pro');
  const ow = await s.wallet(other.key);
  s.chain.fund('base-sepolia', ow.address, 'USDC', parseUnits('10', 6));
  expect((await s.rest('POST', '/v1/intents', other.key, { walletId: ow.id, action: 'lend', amount: 2, chain: 'base-sepolia' })).status).toBe(201);
});

test('error: the expected gas is reserved at admission, atomically: of two lends sent at once under a budget that fits one, one is 201 and the other 429 with nothing stored', async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  s.chain.fund('base-sepolia', w.address, 'USDC', parseUnits('10', 6));
  const body = { walletId: w.id, action: 'lend', amount: 2, chain: 'base-sepolia' };
  const answers = await Promise.all([s.rest('POST', '/v1/intents', key, body), s.rest('POST', '/v1/intents', key, body)]);
  expect(answers.map((a) => a.status).sort()).toEqual([201, 429]);
  expect(answers.find((a) => a.status === 429)!.body.error).toBe('GAS_BUDGET_EXCEEDED');
  expect((await s.rest('GET', `/v1/intents?walletId=${w.id}`, key)).body.intents).toHaveLength(1);
});

describe('a budget with room for more than one lend', () => {
  let roomy: IntentsServer;
  beforeAll(async () => {
    // 600,000 gwei: a completed lend leaves 226,000 spent; its 281,600 reservation must come back for a second to fit
    roomy = await startIntentsServer({ gasBudgetWei: 600_000n * 1_000_000_000n });
  });
  afterAll(async () => {
    await roomy?.stop();
  });

  test('behavior: a final intent gives its reservation back and keeps its actual gas counted, so the next one is admitted against what was spent', async () => {
    const { key } = await roomy.account('pro');
    const w = await roomy.wallet(key);
    roomy.chain.fund('base-sepolia', w.address, 'USDC', parseUnits('10', 6));
    const body = { walletId: w.id, action: 'lend', amount: 2, chain: 'base-sepolia' };
    const first = await roomy.rest('POST', '/v1/intents', key, body);
    expect(first.status).toBe(201);
    expect((await pollFinal(roomy, key, first.body.id)).body.status).toBe('completed');
    const second = await roomy.rest('POST', '/v1/intents', key, body);
    expect(second.status).toBe(201);
    expect((await pollFinal(roomy, key, second.body.id)).body.status).toBe('completed');
    // 452,000 spent: a third lend's 281,600 no longer fits
    const third = await roomy.rest('POST', '/v1/intents', key, body);
    expect(third.status).toBe(429);
  });
});
