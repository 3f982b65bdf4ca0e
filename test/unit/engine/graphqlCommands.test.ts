import { usdc } from './engineHarness';
import { startIntentsServer, type IntentsServer } from './intentsServer';

/**
 * GraphQL maps CreateIntentInput to the command once, the same way for
 * createIntent and previewIntent: a rebalance source without a protocol is the
 * wallet's idle funds on its chain, as the input's description says.
 */

const PREVIEW = `query($input: CreateIntentInput!) { previewIntent(input: $input) { action strategy amount steps { type chain } } }`;
const CREATE = `mutation($input: CreateIntentInput!) { createIntent(input: $input) { id status action sources { chain protocol amount } } }`;

let s: IntentsServer;
beforeAll(async () => {
  s = await startIntentsServer();
});
afterAll(async () => {
  await s?.stop();
});

test('behavior: previewIntent and createIntent read a rebalance source without protocol as idle funds (one input-to-command mapping)', async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  s.chain.fund('base-sepolia', w.address, 'USDC', usdc('20'));
  const input = {
    walletId: w.id,
    action: 'REBALANCE',
    amount: '5',
    toChain: 'BASE_SEPOLIA',
    toProtocol: 'AAVE_V3',
    sources: [{ chain: 'BASE_SEPOLIA', amount: '5' }],
  };
  const preview = await s.gql(PREVIEW, { input }, key);
  expect(preview.body.errors).toBeUndefined();
  expect(preview.body.data.previewIntent).toMatchObject({ action: 'REBALANCE', amount: '5' });
  const created = await s.gql(CREATE, { input }, key);
  expect(created.body.errors).toBeUndefined();
  expect(created.body.data.createIntent).toMatchObject({ action: 'REBALANCE', sources: [{ chain: 'BASE_SEPOLIA', protocol: null, amount: '5' }] });
});
