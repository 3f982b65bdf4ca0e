/**
 * GraphQL query throughput of the service's /graphql (auth, rate window and
 * credits included) against a bare graphql-yoga server answering the same
 * query shape, in the same run; load from a separate process.
 * Run: npx ts-node --transpile-only bench/graphqlThroughput.ts
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchema, createYoga } from 'graphql-yoga';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startService } from '../src/service';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const QUERY = JSON.stringify({ query: 'query W($u: String!) { wallet(userId: $u) { id userId address chains createdAt } }', variables: { u: 'bench' } });

/** Runs the load generator in a child process (asynchronously: the server under test lives in this process). */
async function load(url: string, headers: Record<string, string>): Promise<{ rps: number; errors: number }> {
  const spec = JSON.stringify({ url, body: QUERY, headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers }, concurrency: CONCURRENCY, seconds: SECONDS });
  const { stdout: out } = await promisify(execFile)(process.execPath, ['-r', 'ts-node/register/transpile-only', 'bench/support/httpLoad.ts', spec], { encoding: 'utf8' });
  const r = JSON.parse(out) as { requests: number; errors: number; seconds: number };
  return { rps: r.requests / r.seconds, errors: r.errors };
}

async function bareYoga(): Promise<{ url: string; stop(): Promise<void> }> {
  const wallet = { id: 'svc_wallet_x', userId: 'bench', address: '0x0000000000000000000000000000000000000001', chains: ['BASE_SEPOLIA'], createdAt: new Date().toISOString() };
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: 'type Wallet { id: ID! userId: String! address: String! chains: [String!]! createdAt: String! } type Query { wallet(userId: String!): Wallet! }',
      resolvers: { Query: { wallet: () => wallet } },
    }),
    logging: false,
  });
  const server = createServer(yoga);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, stop: () => new Promise((r) => server.close(() => r())) };
}

async function main(): Promise<void> {
  const bare = await bareYoga();
  await load(bare.url, {}); // warm-up
  const b = await load(bare.url, {});
  await bare.stop();

  const admin = 'bench-admin-token-0123456789';
  const svc = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN: admin }), createLogger('silent'));
  // An enterprise account with a rate limit the load cannot reach: the bench measures the path, not the 429s.
  const acct = await (
    await fetch(`${svc.url}/admin/accounts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ plan: 'enterprise', requestsPerMinute: 1_000_000 }),
    })
  ).json();
  const auth = { Authorization: `Bearer ${acct.apiKey.key}` };
  await fetch(`${svc.url}/v1/wallets`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"userId":"bench"}' });
  await load(`${svc.url}/graphql`, auth);
  const s = await load(`${svc.url}/graphql`, auth);
  await svc.stop();

  console.log(`${CONCURRENCY} concurrent keep-alive clients, ${SECONDS} s each, load from a separate process`);
  console.log('| server | requests/s | errors |');
  console.log('|---|---|---|');
  console.log(`| bare graphql-yoga (baseline) | ${b.rps.toFixed(0)} | ${b.errors} |`);
  console.log(`| service /graphql (key, rate window, credits, store read) | ${s.rps.toFixed(0)} | ${s.errors} |`);
  console.log(`throughput ratio (service / bare yoga): ${(s.rps / b.rps).toFixed(2)}×`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
