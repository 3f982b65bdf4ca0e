import { createPublicClient, http } from 'viem';
import { messageTransmitterV2Abi } from '../../../src/chain/sandbox/abis';
import { startOwnSandboxServer, type OwnSandboxServer } from '../../helpers/ownSandbox';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type Json, type TestServer } from '../../helpers/server';
import { intentHttp, usdc, type IntentHttp } from './intentsHttpHelpers';

/**
 * Bridges through trouble at the attestation service, on devnets of their
 * own. A bridge whose attestation has expired before its mint (its
 * `expirationBlock` passed on the destination), on devnets of their own whose
 * attestation service signs with a one-block window: the mint would revert
 * "Message expired and must be re-signed", so the service re-attests
 * (`POST /v2/reattest/{nonce}`) and mints once with the new attestation.
 * During an outage of the service, bridges are still planned: with its last
 * fee tiers (`feeSource: lastKnown`), or, for a standard one before it ever
 * answered, free (`standardFree`).
 */
let own: OwnSandboxServer | undefined;
let srv: TestServer;
let key: string;
let api: IntentHttp;

beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  own = await startOwnSandboxServer({ SANDBOX_ACCOUNT_MODEL: 'plain' });
  srv = own.srv;
  key = (await srv.admin.createAccount({ plan: 'pro', requestsPerMinute: 10_000 })).key;
  api = intentHttp(srv, key);
}, 90_000);
afterAll(async () => {
  own?.sandbox.iris.setExpirationBlocks(0);
  await own?.stop();
});
afterEach(() => {
  own!.sandbox.iris.setExpirationBlocks(0);
  own!.sandbox.iris.setReattestRefused(false);
  own!.sandbox.iris.setOutage(false);
});

const DEST = 'base-sepolia';

/** Every CCTP message received on the destination so far (one per mint that landed). */
async function messagesReceived(): Promise<number> {
  const d = own!.sandbox.manifest.chains[DEST]!;
  const client = createPublicClient({ transport: http(d.rpcUrl, { retryCount: 0 }) });
  const logs = await client.getContractEvents({ address: d.messageTransmitter, abi: messageTransmitterV2Abi, eventName: 'MessageReceived', fromBlock: 0n });
  return logs.length;
}

/** Polls the intent until `accept` holds (bounded). */
async function until(id: string, accept: (i: Json) => boolean, what: string, on: TestServer = srv, as: string = key): Promise<Json> {
  const deadline = Date.now() + 20_000;
  let last: Json;
  while (Date.now() < deadline) {
    last = (await on.rest('GET', `/v1/intents/${id}`, { key: as })).body;
    if (accept(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: never reached: ${JSON.stringify(last)}`);
}

test('behavior: an attestation expired before its mint is re-attested and the bridge completes with exactly one mint', async () => {
  const w = await api.fundedWallet('expired', { 'arbitrum-sepolia': '5' });
  const before = await messagesReceived();
  const reattested = own!.sandbox.iris.reattested();
  own!.sandbox.iris.setExpirationBlocks(1);
  const done = await api.run({ walletId: w.id, action: 'bridge', amount: '5', fromChain: 'arbitrum-sepolia', toChain: DEST });
  expect(done.status).toBe('completed');
  expect(own!.sandbox.iris.reattested()).toBe(reattested + 1);
  expect(await messagesReceived()).toBe(before + 1);
  const b = await api.balances(w.id);
  const token = b.chains.find((c: Json) => c.chain === DEST).tokens.find((t: Json) => t.asset === 'USDC');
  expect(BigInt(token.balance)).toBe(usdc('5'));
});

test('behavior: while the attestation service refuses to re-attest, the bridge step shows attempts, lastError and nextAttemptAt; once it re-attests, the intent completes with one mint', async () => {
  const w = await api.fundedWallet('refused', { 'arbitrum-sepolia': '3' });
  const before = await messagesReceived();
  own!.sandbox.iris.setExpirationBlocks(1);
  own!.sandbox.iris.setReattestRefused(true);
  const { id } = await api.submit({ walletId: w.id, action: 'bridge', amount: '3', fromChain: 'arbitrum-sepolia', toChain: DEST });
  const waiting = await until(id, (i) => (i.executionPlan?.steps[0]?.attempts ?? 0) >= 2, 'the mint noted twice on the step');
  expect(waiting.status).toBe('executing');
  const step = waiting.executionPlan.steps[0];
  expect(step.lastError).toMatchObject({ code: 'BRIDGE_FAILED', message: expect.stringContaining('re-attestation') });
  expect(Date.parse(step.nextAttemptAt)).toBeGreaterThan(Date.parse(waiting.updatedAt) - 1);
  expect(await messagesReceived()).toBe(before);

  own!.sandbox.iris.setReattestRefused(false);
  const done = await api.waitFinal(id);
  expect(done.status).toBe('completed');
  expect(done.executionPlan.steps[0]).not.toHaveProperty('attempts');
  expect(await messagesReceived()).toBe(before + 1);
}, 60_000);

test('behavior: with the attestation service down, a fast bridge is planned with its last known fee (feeSource lastKnown) and completes once the service is back', async () => {
  // a fee table was read by the bridges above; it is kept 5 s, then the service is asked again
  const w = await api.fundedWallet('outage-fast', { 'arbitrum-sepolia': '2' });
  own!.sandbox.iris.setOutage(true);
  await new Promise((r) => setTimeout(r, 5_500));
  const { id } = await api.submit({ walletId: w.id, action: 'bridge', amount: '2', fromChain: 'arbitrum-sepolia', toChain: DEST });
  const planned = await until(id, (i) => i.executionPlan !== null && i.executionPlan !== undefined, 'planned');
  expect(planned.status).toBe('executing');
  expect(planned.executionPlan.steps[0]).toMatchObject({ type: 'bridge', feeSource: 'lastKnown', maxFee: '0' });
  own!.sandbox.iris.setOutage(false);
  const done = await api.waitFinal(id);
  expect(done.status).toBe('completed');
}, 60_000);

test('behavior: a standard bridge is planned free (feeSource standardFree) by a service started while the attestation service is down, and completes once it is back', async () => {
  own!.sandbox.iris.setOutage(true);
  const path = join(mkdtempSync(join(tmpdir(), 'iris-out-')), 'manifest.json');
  writeFileSync(path, JSON.stringify(own!.sandbox.manifest));
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  const fresh = await startTestServer({ SANDBOX_MANIFEST: path, SANDBOX_ACCOUNT_MODEL: 'plain' });
  try {
    const freshKey = (await fresh.admin.createAccount({ plan: 'pro', requestsPerMinute: 10_000 })).key;
    const freshApi = intentHttp(fresh, freshKey);
    const w = await freshApi.fundedWallet('outage-standard', { 'arbitrum-sepolia': '2' });
    const { id } = await freshApi.submit({ walletId: w.id, action: 'bridge', amount: '2', fromChain: 'arbitrum-sepolia', toChain: DEST, speed: 'standard' });
    const planned = await until(id, (i) => i.executionPlan !== null && i.executionPlan !== undefined, 'planned', fresh, freshKey);
    expect(planned.status).toBe('executing');
    expect(planned.executionPlan.steps[0]).toMatchObject({ type: 'bridge', feeSource: 'standardFree', maxFee: '0', minFinalityThreshold: 2000 });
    own!.sandbox.iris.setOutage(false);
    const done = await freshApi.waitFinal(id);
    expect(done.status).toBe('completed');
  } finally {
    await fresh.stop();
  }
}, 60_000);
