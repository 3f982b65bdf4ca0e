import { parseUnits } from 'viem';
import { pollFinal, startIntentsServer, type IntentsServer } from '../engine/intentsServer';

/** The per-account gas budget over HTTP, on the fake chain (each receipt costs gasUsed × 1 gwei). */
let s: IntentsServer;
beforeAll(async () => {
  s = await startIntentsServer({ gasBudgetWei: 1_000_000_000n }); // 1 gwei: the first intent spends past it
});
afterAll(async () => {
  await s?.stop();
});

test('error: once an account\'s gas over 24 h reaches GAS_BUDGET_PER_ACCOUNT, POST /v1/intents and createIntent are 429 GAS_BUDGET_EXCEEDED and nothing is stored or started', async () => {
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
  expect(refused.body).toMatchObject({ error: 'GAS_BUDGET_EXCEEDED', details: { budgetEth: '0.000000001', windowHours: 24 } });
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
