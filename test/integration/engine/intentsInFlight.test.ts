import { randomBytes } from 'node:crypto';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { ADMIN_TOKEN, startTestServer, type Json, type TestServer } from '../../helpers/server';
import { expectCompleted, intentHttp, usdc, usdcOn, type IntentHttp } from './intentsHttpHelpers';
import type { ChainPort } from '../../../src/ports/chain';
import { createKeyVault } from '../../../src/chain/keyVault';
import type { ChainName } from '../../../src/domain/chains';
import type { Intent } from '../../../src/domain/intent';
import { pendingIntent, walletRecord } from '../../unit/engine/intentFixture';
import { createSystemClock } from '../../../src/domain/clock';
import { createEngine } from '../../../src/engine/engine';
import { silentLogger } from '../../../src/engine/engineLogger';
import { isFinal } from '../../../src/domain/intentStateMachine';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';

/**
 * Transactions in flight on the devnets: a destination that keeps failing
 * after the burn, a source chain that mines nothing for 75 s, a restart while
 * a burn waits in the mempool, two intents racing for one wallet's tokens.
 * Stalls and faults are global to a devnet, so this file runs on its OWN
 * sandbox (route fee 0 there), one test after the other.
 */

let srv: TestServer;
let key: string;
let api: IntentHttp;

beforeAll(async () => {
  // in-flight waits capped at 500 ms so twenty failures pass in seconds; stuck after the sandbox default (5 s)
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  srv = await startTestServer({ SANDBOX_MANIFEST: '', TX_RETRY_MAX_MS: '500', SANDBOX_ACCOUNT_MODEL: 'plain' });
  key = (await srv.admin.createAccount({ plan: 'enterprise' })).key;
  api = intentHttp(srv, key);
}, 60_000);
afterAll(() => srv?.stop());

const controls = () => srv.service.chains.controls!;
const rpcUrl = (chain: ChainName): string => srv.service.chains.manifest.chains[chain]!.rpcUrl;
const client = (chain: ChainName) => createPublicClient({ transport: http(rpcUrl(chain), { retryCount: 0 }) });

/** Every hash a transaction record was signed with at its nonce. */
const hashesOf = (t: Json): Hex[] => [t.txHash, ...(t.replacedTxHashes ?? [])];

/** How many of `hashes` the chain mined. */
async function minedCount(chain: ChainName, hashes: Hex[]): Promise<number> {
  const c = client(chain);
  const receipts = await Promise.all(hashes.map((hash) => c.getTransactionReceipt({ hash }).catch(() => null)));
  return receipts.filter((r) => r !== null).length;
}

/** Polls GET /v1/intents/:id until final (within `withinMs`), recording every status seen. */
async function pollFinal(id: string, withinMs: number, statuses: string[]): Promise<Json> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const r = await srv.rest('GET', `/v1/intents/${id}`, { key });
    expect(r.status).toBe(200);
    statuses.push(r.body.status);
    if (isFinal(r.body.status)) return r.body;
    await new Promise((res) => setTimeout(res, 500));
  }
  throw new Error(`intent ${id} not final within ${withinMs} ms`);
}

describe('a confirmed burn is always minted', () => {
  test('behavior: the destination RPC failing 20 times right after the burn → the bridge completes; the source lost exactly the amount, the destination holds it', async () => {
    const w = await api.fundedWallet('dest-rpc', { 'arbitrum-sepolia': '5' });
    const statuses: string[] = [];
    const attempts: number[] = [];
    let armed = false;
    const off = srv.service.deps.engine.bus.listen({ walletId: w.id }, (i) => {
      statuses.push(i.status);
      const bridge = i.executionPlan?.steps[0];
      if (bridge?.attempts !== undefined) attempts.push(bridge.attempts);
      const burned = i.results?.transactions.some((t: Json) => t.kind === 'burn' && t.status === 'confirmed');
      if (burned && !armed) {
        armed = true;
        controls().registerFault({ chain: 'base-sepolia', kind: 'rpc-error', count: 20 });
      }
    });
    let done: Json;
    try {
      done = await api.run({ walletId: w.id, action: 'bridge', amount: 5, fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' });
    } finally {
      off();
    }
    expectCompleted(done);
    expect(armed).toBe(true);
    expect(statuses).not.toContain('failed');
    // the mint kept trying, visibly, and the step's retry note is gone once it landed
    expect(attempts.length).toBeGreaterThan(0);
    expect(done.executionPlan.steps[0].attempts).toBeUndefined();
    expect(controls().faults.pending()).toEqual({});
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(0n);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('5'));
  });
});

describe('a stalled chain', () => {
  test('behavior: the source chain stalling 75 s after the intent starts → never failed meanwhile; the stuck transaction is replaced at its nonce, exactly one of its hashes mined; the bridge completes once the chain resumes', async () => {
    const w = await api.fundedWallet('stall', { 'arbitrum-sepolia': '5' });
    // gas in hand, so the transaction that waits is the wallet's own (not the service's top-up)
    await client('arbitrum-sepolia').request({ method: 'hardhat_setBalance' as never, params: [w.address, '0xDE0B6B3A7640000'] as never });
    const intent = await api.submit({ walletId: w.id, action: 'bridge', amount: 5, fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' });
    const stall = await srv.rest('POST', '/admin/sandbox/faults', { key: ADMIN_TOKEN, body: { chain: 'arbitrum-sepolia', kind: 'stall', seconds: 75 } });
    expect(stall.status).toBe(201);
    expect(Date.parse(stall.body.resumesAt)).toBeGreaterThan(Date.now() + 70_000);

    const statuses: string[] = [];
    const done = await pollFinal(intent.id, 120_000, statuses);
    expect(statuses).not.toContain('failed');
    expectCompleted(done);
    const onSource = done.results.transactions.filter((t: Json) => t.chain === 'arbitrum-sepolia');
    // the stuck one was replaced (fee-bumped, same nonce); whichever the chain took, it took one
    expect(onSource.some((t: Json) => (t.replacedTxHashes ?? []).length > 0)).toBe(true);
    for (const t of onSource) expect(await minedCount('arbitrum-sepolia', hashesOf(t))).toBe(1);
    expect(await client('arbitrum-sepolia').getTransactionCount({ address: w.address as Address })).toBe(2);
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(0n);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('5'));
  }, 150_000);

  test('behavior: a restart while the burn waits in the mempool → the next engine follows the same burn and mints once', async () => {
    const store = createMemoryStore();
    const keyVault = createKeyVault({ masterKey: randomBytes(32), keys: store.walletKeys });
    const id = `svc_wallet_${randomBytes(16).toString('hex')}`;
    const address = await keyVault.createKey(id);
    const wallet = walletRecord(id, address, 'acct_inflight');
    await store.wallets.insert(wallet);
    await api.mint('arbitrum-sepolia', address, '3');

    const real = srv.service.chains.port;
    let mints = 0;
    let stalled = false;
    // the source chain stops mining just as the burn is sent
    const port: ChainPort = {
      ...real,
      send: async (signer, tx, onSigned) => {
        if (tx.kind === 'burn' && !stalled) {
          stalled = true;
          await controls().stall('arbitrum-sepolia', 8);
        }
        if (tx.kind === 'mint') mints++;
        return real.send(signer, tx, onSigned);
      },
    };
    const options = {
      store,
      chains: port,
      keyVault,
      clock: createSystemClock(),
      logger: silentLogger,
      txStuckAfterMs: 2_000,
      retry: { baseMs: 50, inFlightMaxMs: 500 },
    };
    const first = createEngine(options);
    const now = new Date().toISOString();
    const intent = pendingIntent({
      id: `intent_${randomBytes(16).toString('hex')}`,
      accountId: 'acct_inflight',
      walletId: id,
      action: 'bridge',
      amount: '3',
      requestedAmount: '3',
      fromChain: 'arbitrum-sepolia',
      toChain: 'base-sepolia',
      createdAt: now,
      updatedAt: now,
    });
    await store.intents.insert(intent);
    await first.submit(intent);
    const burnSigned = async () => (await store.intents.get(intent.id))?.results?.transactions.some((t: Json) => t.kind === 'burn');
    for (let n = 0; n < 500 && !(await burnSigned()); n++) await new Promise((r) => setTimeout(r, 20));
    expect(await burnSigned()).toBe(true);
    await first.stop();
    expect((await store.intents.get(intent.id))?.status).toBe('executing');

    const second = createEngine(options);
    try {
      expect((await second.start()).resumed).toBe(1);
      let done: Intent | null = null;
      for (let n = 0; n < 300 && !(done && isFinal(done.status)); n++) {
        await new Promise((r) => setTimeout(r, 100));
        done = await store.intents.get(intent.id);
      }
      expect(done?.status).toBe('completed');
      expect(mints).toBe(1);
      const [base] = await real.holdings(address, ['base-sepolia']);
      expect(base?.tokens.find((t) => t.asset === 'USDC')?.balance).toBe(usdc('3'));
      const [source] = await real.holdings(address, ['arbitrum-sepolia']);
      expect(source?.tokens.find((t) => t.asset === 'USDC')?.balance ?? 0n).toBe(0n);
    } finally {
      await second.stop();
    }
  }, 60_000);
});

describe('pending funds', () => {
  test('error: two intents posted at once on one wallet never plan the same tokens: one completes, the other fails INSUFFICIENT_FUNDS up front with nothing sent', async () => {
    const w = await api.fundedWallet('race', { 'base-sepolia': '30' });
    const [a, b] = await Promise.all([0, 1].map(() => api.submit({ walletId: w.id, action: 'lend', amount: 20, chain: 'base-sepolia' })));
    const done = await Promise.all([api.waitFinal(a.id), api.waitFinal(b.id)]);
    const completed = done.filter((i) => i.status === 'completed');
    const failed = done.filter((i) => i.status === 'failed');
    expect(completed).toHaveLength(1);
    expect(failed).toHaveLength(1);
    expect(failed[0].error.code).toBe('INSUFFICIENT_FUNDS');
    expect(failed[0].results?.transactions ?? []).toEqual([]);
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('10'));
  });
});
