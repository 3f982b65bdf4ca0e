/**
 * Subscription fan-out: time from one publish to the last of N subscribers
 * receiving it, for the service's intentUpdated (graphql-ws on /graphql) against
 * a bare graphql-ws server with the same selection, in the same run.
 * Run: npx ts-node --transpile-only bench/graphqlFanout.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, execute, subscribe } from 'graphql';
import { WebSocketServer } from 'ws';
import WebSocket from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { createClient, type Client } from 'graphql-ws';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startService } from '../src/service';
import { emptyResults, type Intent } from '../src/domain/intent';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const CONNECTIONS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const SELECTION = 'id status amount requestedAmount createdAt results { completedSteps totalGasUsed totalGasCostUsd finalAmount }';
const QUERY = `subscription($id: ID!) { intentUpdated(id: $id) { ${SELECTION} } }`;

function snapshot(id: string, walletId: string, accountId: string, version: number): Intent {
  return {
    id,
    accountId,
    walletId,
    status: 'executing',
    action: 'lend',
    amount: '100',
    requestedAmount: '100',
    asset: 'USDC',
    executionPlan: { strategy: 'no-bridge', reasoning: 'bench', steps: [] },
    results: { ...emptyResults(4.2), completedSteps: version % 2, totalGasUsed: String(100_000 + version) },
    createdAt: new Date(0).toISOString(),
    updatedAt: new Date().toISOString(),
    version,
  };
}

interface Fanout {
  url: string;
  authorization?: string;
  intentId: string;
  publish(version: number): void;
  stop(): Promise<void>;
}

/** N subscribers over a few connections; resolves per round when every subscriber has seen `version`. */
async function measure(f: Fanout): Promise<number[]> {
  const clients: Client[] = Array.from({ length: CONNECTIONS }, () =>
    createClient({ url: f.url, webSocketImpl: WebSocket, connectionParams: f.authorization ? { authorization: f.authorization } : {}, retryAttempts: 0 }),
  );
  let target = 0;
  let seen = 0;
  let onAll: (() => void) | null = null;
  const disposers: (() => void)[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    disposers.push(
      clients[i % CONNECTIONS]!.subscribe(
        { query: QUERY, variables: { id: f.intentId } },
        {
          next: (r) => {
            const total = Number((r.data as { intentUpdated: { results: { totalGasUsed: string } } }).intentUpdated.results.totalGasUsed) - 100_000;
            if (total === target && ++seen === SUBSCRIBERS) onAll?.();
          },
          error: (e) => console.error('subscription error', e),
          complete: () => {},
        },
      ),
    );
  }
  const round = async (version: number): Promise<number> => {
    target = version;
    seen = 0;
    const done = new Promise<void>((r) => (onAll = r));
    const t = process.hrtime.bigint();
    f.publish(version);
    await done;
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  // Warm-up: the initial subscription handshake, then one round not counted.
  await new Promise((r) => setTimeout(r, 500));
  await round(1);
  const times: number[] = [];
  for (let v = 2; v < ROUNDS + 2; v++) times.push(await round(v));
  disposers.forEach((d) => d());
  await Promise.all(clients.map((c) => c.dispose()));
  return times.sort((a, b) => a - b);
}

async function bareServer(): Promise<Fanout> {
  const schema = buildSchema(`
    type Results { completedSteps: Int! totalGasUsed: String! totalGasCostUsd: Float! finalAmount: String! }
    type Intent { id: ID! status: String! amount: String! requestedAmount: String! createdAt: String! results: Results }
    type Query { ok: Boolean }
    type Subscription { intentUpdated(id: ID!): Intent! }
  `);
  const listeners = new Set<(i: Intent) => void>();
  const roots = {
    intentUpdated: () => {
      const queue: Intent[] = [];
      let wake: (() => void) | null = null;
      const l = (i: Intent) => {
        queue.push(i);
        wake?.();
      };
      listeners.add(l);
      const it: AsyncIterableIterator<{ intentUpdated: Intent }> = {
        async next() {
          while (queue.length === 0) await new Promise<void>((r) => (wake = r));
          return { value: { intentUpdated: queue.shift()! }, done: false };
        },
        async return() {
          listeners.delete(l);
          return { value: undefined, done: true };
        },
        [Symbol.asyncIterator]: () => it,
      };
      return it;
    },
  };
  const server = createServer();
  const wss = new WebSocketServer({ server, path: '/graphql' });
  const cleanup = useServer({ schema, execute, subscribe, roots: { subscription: roots } }, wss);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/graphql`,
    intentId: 'intent_bare',
    publish: (v) => listeners.forEach((l) => l(snapshot('intent_bare', 'w', 'a', v))),
    async stop() {
      await cleanup.dispose();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function serviceServer(): Promise<Fanout> {
  const svc = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DEV_PLAN: 'enterprise' }), createLogger('silent'));
  // started in development: the generated development key is there
  const key = svc.devApiKey!;
  const accountId = svc.devAccountId!;
  const w = await (
    await fetch(`${svc.url}/v1/wallets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: '{"userId":"fanout"}',
    })
  ).json();
  const intent = snapshot('intent_fanout', w.id, accountId, 0);
  await svc.deps.store.intents.insert(intent);
  return {
    url: svc.url.replace('http', 'ws') + '/graphql',
    authorization: `Bearer ${key}`,
    intentId: intent.id,
    publish: (v) => svc.deps.engine.bus.publish(snapshot(intent.id, w.id, accountId, v)),
    stop: () => svc.stop(),
  };
}

const stats = (xs: number[]) => ({ p50: xs[Math.floor(xs.length / 2)]!, min: xs[0]!, max: xs[xs.length - 1]! });

async function main(): Promise<void> {
  const bare = await bareServer();
  const bareTimes = await measure(bare);
  await bare.stop();
  const svc = await serviceServer();
  const svcTimes = await measure(svc);
  await svc.stop();
  const b = stats(bareTimes);
  const s = stats(svcTimes);
  console.log(`subscribers: ${SUBSCRIBERS} over ${CONNECTIONS} connections, ${ROUNDS} rounds (publish → last subscriber)`);
  console.log('| server | p50 ms | min ms | max ms |');
  console.log('|---|---|---|---|');
  console.log(`| bare graphql-ws (baseline) | ${b.p50.toFixed(1)} | ${b.min.toFixed(1)} | ${b.max.toFixed(1)} |`);
  console.log(`| service intentUpdated | ${s.p50.toFixed(1)} | ${s.min.toFixed(1)} | ${s.max.toFixed(1)} |`);
  console.log(`fan-out ratio (service p50 / bare p50): ${(s.p50 / b.p50).toFixed(2)}×`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
