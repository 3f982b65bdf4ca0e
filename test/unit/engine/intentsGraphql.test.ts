import { usdc } from './engineHarness';
import { pollFinal, startIntentsServer, type IntentsServer } from './intentsServer';

const INTENT_FIELDS = `
  id walletId status action amount requestedAmount asset chain fromChain toChain
  executionPlan {
    strategy reasoning
    steps {
      __typename index status chain amount txHash gasUsed
      ... on DepositStep { protocol asset }
      ... on WithdrawStep { protocol asset }
      ... on BridgeStep { from to fee feeSource }
    }
  }
  results { completedSteps totalGasUsed totalGasCostUsd finalAmount apy failedStep transactions { type kind status txHash chain gasUsed } }
  error { code message details }
  createdAt completedAt`;

const CREATE = `mutation($input: CreateIntentInput!) { createIntent(input: $input) { ${INTENT_FIELDS} } }`;
const GET = `query($id: ID!) { intent(id: $id) { ${INTENT_FIELDS} } }`;
const LIST = `query($walletId: ID!, $status: IntentStatus, $first: Int, $after: String) {
  intents(walletId: $walletId, status: $status, first: $first, after: $after) { edges { cursor node { id status } } pageInfo { hasNextPage endCursor } }
}`;

describe('GraphQL intents (memory store, fake chain)', () => {
  let s: IntentsServer;
  let key: string;
  let wallet: { id: string; address: `0x${string}` };

  beforeAll(async () => {
    s = await startIntentsServer();
    ({ key } = await s.account('free'));
    wallet = await s.wallet(key);
    s.chain.fund('arbitrum-sepolia', wallet.address, 'USDC', usdc('100'));
  });

  afterAll(async () => {
    await s?.stop();
  });

  test('behavior: createIntent (one mutation, action enum, decimal string amount) → intent(id) shows bridge and deposit steps by type', async () => {
    const created = await s.gql(CREATE, { input: { walletId: wallet.id, action: 'LEND', amount: '40', chain: null } }, key);
    expect(created.body.errors).toBeUndefined();
    const intent = created.body.data.createIntent;
    expect(intent).toMatchObject({ walletId: wallet.id, action: 'LEND', requestedAmount: '40', asset: 'USDC', chain: null });
    expect(['PENDING', 'PLANNING', 'EXECUTING', 'COMPLETED']).toContain(intent.status);

    await pollFinal(s, key, intent.id);
    const got = await s.gql(GET, { id: intent.id }, key);
    const done = got.body.data.intent;
    expect(done).toMatchObject({
      status: 'COMPLETED',
      amount: '39.98',
      executionPlan: {
        strategy: 'SINGLE_BRIDGE',
        steps: [
          {
            __typename: 'BridgeStep',
            index: 0,
            status: 'COMPLETED',
            chain: 'ARBITRUM_SEPOLIA',
            from: 'ARBITRUM_SEPOLIA',
            to: 'BASE_SEPOLIA',
            amount: '40',
            fee: '0.02',
            feeSource: null, // the attestation service answered at planning
          },
          { __typename: 'DepositStep', index: 1, status: 'COMPLETED', chain: 'BASE_SEPOLIA', protocol: 'AAVE_V3', asset: 'USDC', amount: '39.98' },
        ],
      },
      results: { completedSteps: 2, finalAmount: '39.98', apy: 4.2, failedStep: null },
      error: null,
    });
    expect(done.results.transactions.map((t: { kind: string }) => t.kind)).toEqual(['APPROVE', 'BURN', 'MINT', 'APPROVE', 'SUPPLY']);
  });

  test('error: the shared zod schema validates the mutation input (extensions.code as in REST)', async () => {
    const res = await s.gql(CREATE, { input: { walletId: wallet.id, action: 'WITHDRAW', amount: '1.1234567' } }, key);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'INVALID_REQUEST' });
    const paths = res.body.errors[0].extensions.details.issues.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(['amount', 'chain']);
    const restricted = await s.gql(CREATE, { input: { walletId: wallet.id, action: 'LEND', amount: '1', chain: 'BASE' } }, key);
    expect(restricted.body.errors[0].extensions.code).toBe('PLAN_RESTRICTED');
  });

  test('behavior: intents(walletId) is a connection, newest first, with a cursor; unknown intent is INTENT_NOT_FOUND', async () => {
    const w = await s.wallet(key);
    for (const amount of ['1', '2']) {
      await s.gql(CREATE, { input: { walletId: w.id, action: 'LEND', amount } }, key);
      await new Promise((r) => setTimeout(r, 3));
    }
    const first = await s.gql(LIST, { walletId: w.id, first: 1 }, key);
    const page = first.body.data.intents;
    expect(page.edges).toHaveLength(1);
    expect(page.pageInfo.hasNextPage).toBe(true);
    const next = await s.gql(LIST, { walletId: w.id, first: 1, after: page.pageInfo.endCursor }, key);
    expect(next.body.data.intents.pageInfo.hasNextPage).toBe(false);
    expect(next.body.data.intents.edges[0].node.id).not.toBe(page.edges[0].node.id);

    const missing = await s.gql(GET, { id: 'intent_missing' }, key);
    expect(missing.body.errors[0].extensions.code).toBe('INTENT_NOT_FOUND');
  });
});
