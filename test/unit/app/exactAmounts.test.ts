import { parseUnits } from 'viem';
import { pollFinal, startIntentsServer, type IntentsServer } from '../engine/intentsServer';

/** Amounts stay exact end to end: strings in, `…Units` out, numbers that lost digits refused. */
let s: IntentsServer;
beforeAll(async () => {
  s = await startIntentsServer();
});
afterAll(async () => {
  await s?.stop();
});

test("behavior: a WETH amount with 18 decimals keeps every digit in amountUnits (the number field is the API's, rounded)", async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  const r = await s.rest('POST', '/v1/intents', key, {
    walletId: w.id,
    action: 'withdraw',
    amount: '1.123456789012345678',
    asset: 'WETH',
    chain: 'base-sepolia',
  });
  expect(r.status).toBe(201);
  expect(r.body).toMatchObject({ amount: 1.1234567890123457, amountUnits: '1123456789012345678', requestedAmountUnits: '1123456789012345678' });
});

test('error: a JSON number with more digits than a double carries is 400 naming amount and asking for a string', async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  const body = `{"walletId":"${w.id}","action":"withdraw","asset":"WETH","chain":"base-sepolia","amount":1.123456789012345678}`;
  const res = await fetch(s.url + '/v1/intents', { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body });
  const answer = (await res.json()) as any;
  expect(res.status).toBe(400);
  expect(answer.details.issues).toContainEqual(expect.objectContaining({ path: 'amount', message: expect.stringMatching(/send it as a decimal string/) }));
});

test('behavior: every step carries its amount exactly in smallest units', async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  s.chain.fund('arbitrum-sepolia', w.address, 'USDC', parseUnits('10', 6));
  const r = await s.rest('POST', '/v1/intents', key, { walletId: w.id, action: 'lend', amount: '2.123456' });
  const done = (await pollFinal(s, key, r.body.id)).body;
  expect(done.status).toBe('completed');
  for (const step of done.executionPlan.steps) expect(step.amountUnits).toBe(parseUnits(step.amount, 6).toString());
  expect(done.executionPlan.steps[0].amountUnits).toBe('2123456');
});

test('behavior: an 18-decimal amount round-trips exactly over GraphQL and REST: created by the mutation, read back digit for digit on both doors', async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  const created = await s.gql(
    'mutation($input: CreateIntentInput!) { createIntent(input: $input) { id amount requestedAmount } }',
    { input: { walletId: w.id, action: 'WITHDRAW', amount: '1.000000000000000001', asset: 'WETH', chain: 'BASE_SEPOLIA' } },
    key,
  );
  expect(created.body.errors).toBeUndefined();
  const { id, requestedAmount } = created.body.data.createIntent;
  expect(requestedAmount).toBe('1.000000000000000001');
  const read = await s.gql('query($id: ID!) { intent(id: $id) { requestedAmount } }', { id }, key);
  expect(read.body.data.intent.requestedAmount).toBe('1.000000000000000001');
  const rest = await s.rest('GET', `/v1/intents/${id}`, key);
  expect(rest.body).toMatchObject({ requestedAmount: 1, requestedAmountUnits: '1000000000000000001' });
});
