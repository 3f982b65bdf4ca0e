/**
 * Soak: the service as `npm start` runs it (own devnets, memory store) under a
 * steady mixed load for BENCH_MINUTES (default 10, bounded to 127.0.0.1):
 * REST reads (yields, balances, a wallet), GraphQL queries over HTTP, and
 * graphql-ws subscriptions opened and completed around lends that run to the
 * end. RSS and event-loop delay (p99, max) are sampled every 10 s; the table
 * shows whether they stay flat (first sample against the last).
 *
 * Run: npx ts-node --transpile-only bench/soak.ts   (BENCH_MINUTES=3 for a shorter run)
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startService } from '../src/service';
import { MiB, ms } from './support/benchStats';
import type { Json } from '../test/helpers/server';

const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const SAMPLE_MS = 10_000;
const ADMIN = 'bench-admin-token-0123456789';

async function main(): Promise<void> {
  console.log(
    `command: npx ts-node --transpile-only bench/soak.ts (BENCH_MINUTES=${MINUTES})   load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const svc = await startService(loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ADMIN_TOKEN: ADMIN }), createLogger('silent'));
  const call = async (method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const r = await fetch(svc.url + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  const acct = (await call('POST', '/admin/accounts', ADMIN, { plan: 'enterprise', requestsPerMinute: 1_000_000 })).body;
  const key: string = acct.apiKey.key;
  const wallet = (await call('POST', '/v1/wallets', key, { userId: 'soak' })).body;
  const ws = createClient({
    url: svc.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });

  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const samples: { minute: number; rssMiB: number; p99: number; max: number; requests: number; intents: number }[] = [];
  let requests = 0;
  let errors = 0;
  let intents = 0;
  const end = Date.now() + MINUTES * 60_000;
  const started = Date.now();
  const sampler = setInterval(() => {
    samples.push({
      minute: (Date.now() - started) / 60_000,
      rssMiB: process.memoryUsage().rss / MiB,
      p99: delay.percentile(99) / 1e6,
      max: delay.max / 1e6,
      requests,
      intents,
    });
    delay.reset();
  }, SAMPLE_MS);

  const reader = async (): Promise<void> => {
    const paths = ['/v1/yields', `/v1/balances/${wallet.id}`, '/v1/wallets/soak'];
    for (let i = 0; Date.now() < end; i++) {
      const r = await call('GET', paths[i % paths.length]!, key);
      requests++;
      if (r.status !== 200) errors++;
      const g = await fetch(`${svc.url}/graphql`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ yields { best { apy } } }' }),
      });
      await g.text();
      requests++;
    }
  };
  const lender = async (): Promise<void> => {
    for (let i = 0; Date.now() < end; i++) {
      const w = (await call('POST', '/v1/wallets', key, { userId: `soak-lend-${i}` })).body;
      await call('POST', '/admin/sandbox/mint', ADMIN, { chain: 'base-sepolia', asset: 'USDC', address: w.address, amount: '1' });
      const intent = (await call('POST', '/v1/intents', key, { walletId: w.id, action: 'lend', amount: 1, chain: 'base-sepolia' })).body;
      await new Promise<void>((resolve) =>
        ws.subscribe(
          { query: `subscription { intentUpdated(id: "${intent.id}") { status } }` },
          { next: () => undefined, error: () => resolve(), complete: () => resolve() },
        ),
      );
      intents++;
    }
  };
  try {
    await Promise.all([reader(), reader(), lender()]);
  } finally {
    clearInterval(sampler);
    await ws.dispose();
    await svc.stop();
  }
  console.log(`${MINUTES} min: ${requests} requests (${errors} non-200), ${intents} lends completed over subscriptions; samples every ${SAMPLE_MS / 1000} s`);
  console.log('| minute | RSS MiB | loop delay p99 ms | loop delay max ms | requests so far | lends so far |');
  console.log('|---|---|---|---|---|---|');
  const shown = samples.filter((_, i) => i % Math.max(1, Math.floor(samples.length / 10)) === 0 || i === samples.length - 1);
  for (const s of shown) console.log(`| ${s.minute.toFixed(1)} | ${s.rssMiB.toFixed(0)} | ${ms(s.p99)} | ${ms(s.max)} | ${s.requests} | ${s.intents} |`);
  const [first, last] = [samples[1] ?? samples[0], samples.at(-1)];
  if (first && last)
    console.log(
      `RSS first → last (after warm-up): ${first.rssMiB.toFixed(0)} → ${last.rssMiB.toFixed(0)} MiB; loop delay p99 ${ms(first.p99)} → ${ms(last.p99)} ms`,
    );
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
