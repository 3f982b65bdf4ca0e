import type { AddressInfo } from 'node:net';
import { createBacktestSlots } from '../../../src/app/standing/backtestSlots';
import { randomBytes } from 'node:crypto';
import type { Address } from 'viem';
import type { AppDeps } from '../../../src/app/deps';
import { createKeyCache } from '../../../src/app/accounts/keyCache';
import { recordGasSpent } from '../../../src/app/budgets/gasBudget';
import { settleFinalIntent } from '../../../src/app/budgets/finalIntent';
import { createKeyRevocations } from '../../../src/app/accounts/keyRevocations';
import type { PlanName } from '../../../src/domain/plans';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { createKeyVault } from '../../../src/chain/keyVault';
import { createReadCaches, invalidateWalletHoldings } from '../../../src/app/caches';
import { createAccount } from '../../../src/app/accounts/createAccount';
import { createEngine, type Engine } from '../../../src/engine/engine';
import { createSystemClock } from '../../../src/domain/clock';
import { createMetrics } from '../../../src/metrics';
import { createFrontDoors } from '../../../src/frontDoors';
import { createLogger } from '../../../src/logger';
import { FakeChain } from './fakeChain';
import { MARKETS } from './engineHarness';

/** An HTTP answer with the body parsed as JSON. */
export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON (tests read answers freely, as the project's eslint config allows for test/**). */
  body: any;
}

/** A REST + GraphQL server wired as service.ts will wire it, over a memory store and the fake chain. */
export interface IntentsServer {
  url: string;
  deps: AppDeps & { engine: Engine };
  chain: FakeChain;
  account(plan?: PlanName): Promise<{ accountId: string; key: string }>;
  wallet(key: string, chainType?: 'ethereum' | 'tron'): Promise<{ id: string; address: Address }>;
  rest(method: string, path: string, key: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  gql(query: string, variables: Record<string, unknown>, key: string, headers?: Record<string, string>): Promise<Answer>;
  stop(): Promise<void>;
}

/** Starts the server on a free port of 127.0.0.1. */
export async function startIntentsServer(o: { gasBudgetWei?: bigint } = {}): Promise<IntentsServer> {
  const clock = createSystemClock();
  const store = createMemoryStore();
  const chain = new FakeChain({ rates: MARKETS, feeBps: 5 });
  const logger = createLogger('silent');
  const keyVault = createKeyVault({ masterKey: randomBytes(32), keys: store.walletKeys });
  const caches = createReadCaches();
  const engine = createEngine({
    store,
    chains: chain,
    keyVault,
    clock,
    logger,
    retry: { baseMs: 1, maxMs: 5 },
    onWalletActivity: (walletId) => invalidateWalletHoldings(caches, walletId),
    onGasSpent: (intent, wei) => void recordGasSpent(store.usage, intent.accountId, wei, new Date()),
    onFinal: (intent) => settleFinalIntent({ store }, intent),
  });
  const deps: AppDeps & { engine: Engine } = {
    store,
    clock,
    keyVault,
    keyCache: createKeyCache({ max: 100 }),
    revocations: createKeyRevocations({ store }),
    chains: chain,
    caches,
    limits: { gasBudgetPerAccountWei: o.gasBudgetWei ?? 10n ** 18n },
    environment: 'development',
    sessionSecret: Buffer.alloc(32, 7),
    engine,
    backtests: createBacktestSlots(),
  };
  const { server, closeWebSocket } = createFrontDoors({
    deps,
    logger,
    metrics: createMetrics(),
    production: false,
    bodyLimitBytes: 64 * 1024,
    health: { ready: async () => ({}) },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await engine.start();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const send = async (path: string, init: RequestInit): Promise<Answer> => {
    const res = await fetch(`${url}${path}`, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
  const auth = (key: string, headers: Record<string, string> = {}) => ({ Authorization: `Bearer ${key}`, ...headers });

  return {
    url,
    deps,
    chain,
    async account(plan = 'free') {
      const { account, apiKey } = await createAccount(deps, { plan });
      return { accountId: account.id, key: apiKey.key };
    },
    async wallet(key, chainType = 'ethereum') {
      const res = await send('/v1/wallets', {
        method: 'POST',
        headers: auth(key, { 'Content-Type': 'application/json' }),
        body: JSON.stringify({ userId: `user_${randomBytes(4).toString('hex')}`, chainType }),
      });
      if (res.status !== 201) throw new Error(`wallet creation failed: ${JSON.stringify(res.body)}`);
      const stored = await store.wallets.getById(res.body.id);
      return { id: res.body.id, address: stored!.evmAddress as Address };
    },
    rest(method, path, key, body, headers) {
      const init: RequestInit = { method, headers: auth(key, headers) };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        init.headers = auth(key, { 'Content-Type': 'application/json', ...headers });
      }
      return send(path, init);
    },
    gql(query, variables, key, headers) {
      return send('/graphql', {
        method: 'POST',
        headers: auth(key, { 'Content-Type': 'application/json', ...headers }),
        body: JSON.stringify({ query, variables }),
      });
    },
    async stop() {
      deps.revocations.close();
      await engine.stop();
      await closeWebSocket();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Keeps asking GET /v1/intents/:id until the intent is final. */
export async function pollFinal(s: IntentsServer, key: string, id: string): Promise<Answer> {
  for (let n = 0; n < 200; n++) {
    const res = await s.rest('GET', `/v1/intents/${id}`, key);
    if (res.body?.status === 'completed' || res.body?.status === 'failed') return res;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`intent ${id} did not finish`);
}
