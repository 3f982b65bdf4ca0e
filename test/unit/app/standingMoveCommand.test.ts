import { createStandingDecider, type SampleEvent } from '../../../src/app/standing/decider';
import { createIntentOnce } from '../../../src/app/intents/createIntentOnce';
import { systemActor } from '../../../src/domain/actor';
import type { CreateIntentCommand } from '../../../src/domain/commands';
import type { DecisionInput, DecisionResult } from '../../../src/domain/standingIntent';
import { startIntentsServer, type IntentsServer } from '../engine/intentsServer';
import { usdc } from '../engine/engineHarness';

/**
 * A standing intent's move goes through the intents' own use case as a
 * command, in the service's name: the audit log says `system`, not an API
 * key without an id.
 */

let s: IntentsServer;
beforeAll(async () => {
  s = await startIntentsServer();
});
afterAll(async () => {
  await s?.stop();
});

const MOVE: DecisionResult = {
  move: true,
  numbers: {
    target: { chain: 'base-sepolia', protocol: 'aave-v3', apy: 4.2 },
    sources: [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '100', apy: 3.1 }],
    amount: '100',
    costs: { withdrawGasUsd: 0.01, bridgeFeeUsd: 0.05, bridgeGasUsd: 0.02, depositGasUsd: 0.03, totalUsd: 0.11 },
    gainUsd: 2.5,
    netGainUsd: 2.39,
    thresholdUsd: 1,
    horizonDays: 30,
  },
};

function sample(minute: number): SampleEvent {
  const at = new Date(Date.UTC(2026, 6, 1, 12, minute)).toISOString();
  return {
    at,
    samples: [
      { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', at, apy: 4.2 },
      { chain: 'arbitrum-sepolia', protocol: 'aave-v3', asset: 'USDC', at, apy: 3.1 },
    ],
    costs: { gasUsdPerUnit: { 'base-sepolia': 1e-9, 'arbitrum-sepolia': 1e-9 }, routeFeeBps: { 'arbitrum-sepolia': { 'base-sepolia': 1 } } },
  };
}

test("behavior: a standing intent's move is created from its command in the service's name: the intent is the decision's, the audit log's actor is system", async () => {
  const { key, accountId } = await s.account('pro');
  const w = await s.wallet(key);
  s.chain.supplyPosition('arbitrum-sepolia', w.address, 'aave-v3', 'USDC', usdc('100'));
  const created = await s.rest('POST', '/v1/standing-intents', key, { walletId: w.id, asset: 'USDC' });
  expect(created.status).toBe(201);

  const decider = createStandingDecider({ ...s.deps, decide: () => MOVE, buildDecisionInput: () => ({}) as DecisionInput });
  await decider.onSample(sample(1));
  const [decision] = await s.deps.store.standingDecisions.list(created.body.id, { limit: 10 });
  expect(decision).toMatchObject({ outcome: 'rebalanced', intentId: expect.stringMatching(/^intent_/) });

  const intent = await s.deps.store.intents.get(decision!.intentId!);
  expect(intent).toMatchObject({
    accountId,
    walletId: w.id,
    action: 'rebalance',
    requestedAmount: '100',
    toChain: 'base-sepolia',
    toProtocol: 'aave-v3',
    sources: [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '100' }],
  });
  const events = await s.deps.store.auditLog.list(accountId, { limit: 20 });
  const createdEvent = events.find((e) => e.type === 'intent.created' && e.subject.intentId === intent!.id);
  expect(createdEvent?.actor).toEqual({ type: 'system', id: null });
});

test('behavior: a command created twice under one idempotency key is one intent; the second answer is the first replayed', async () => {
  const { key } = await s.account('pro');
  const w = await s.wallet(key);
  s.chain.fund('base-sepolia', w.address, 'USDC', usdc('20'));
  const account = (await s.deps.store.accounts.get((await s.deps.store.wallets.getById(w.id))!.accountId))!;
  const command: CreateIntentCommand = { walletId: w.id, action: 'lend', asset: 'USDC', amount: '10', chain: 'base-sepolia' };
  const first = await createIntentOnce(s.deps, systemActor(account), { key: 'move-key-1', request: command }, () => command);
  const again = await createIntentOnce(s.deps, systemActor(account), { key: 'move-key-1', request: command }, () => command);
  expect(first.replayed).toBe(false);
  expect(first.intent?.id).toBe(first.body.id);
  expect(again).toMatchObject({ replayed: true, status: 201, body: { id: first.body.id } });
  expect(again.intent).toBeUndefined();
});
