/**
 * Chain reads per cold-cache burst: the read caches are cleared, then BURST
 * concurrent requests arrive at once (REST GET /v1/yields, GET
 * /v1/balances/:id, and one GraphQL operation of 20 aliases of `yields`).
 * Prints how many chain reads each burst caused (counted at the chain port)
 * and the slowest answer, so runs before and after a cache change compare.
 * Run: npx ts-node --transpile-only bench/coldCacheBurst.ts
 */
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startService } from '../src/service';

const BURST = Number(process.env.BENCH_BURST ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function main(): Promise<void> {
  const svc = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DEV_PLAN: 'enterprise' }), createLogger('silent'));
  // started in development: the generated development key is there
  const key = svc.devApiKey!;
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const w = (await (await fetch(`${svc.url}/v1/wallets`, { method: 'POST', headers, body: JSON.stringify({ userId: 'burst' }) })).json()) as { id: string };
  const chains = svc.deps.chains;
  const reads = { rates: 0, holdings: 0 };
  const rates = chains.rates.bind(chains);
  const holdings = chains.holdings.bind(chains);
  chains.rates = () => (reads.rates++, rates());
  chains.holdings = (...a: Parameters<typeof holdings>) => (reads.holdings++, holdings(...a));
  const aliases = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: yields { best { apy } }`).join(' ')} }`;

  const cases: [string, keyof typeof reads, () => Promise<Response>, number][] = [
    ['GET /v1/yields', 'rates', () => fetch(`${svc.url}/v1/yields`, { headers }), BURST],
    ['GET /v1/balances/:id', 'holdings', () => fetch(`${svc.url}/v1/balances/${w.id}`, { headers }), BURST],
    ['GraphQL, 20 aliases of yields', 'rates', () => fetch(`${svc.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: aliases }) }), 1],
  ];
  console.log(`burst size ${BURST} (the GraphQL case: one operation), ${ROUNDS} rounds each, caches cleared before each round`);
  console.log('| case | requests per round | chain reads per round (mean) | slowest answer ms (mean) | non-200 |');
  console.log('|---|---|---|---|---|');
  for (const [name, counter, send, n] of cases) {
    let totalReads = 0;
    let slowest = 0;
    let bad = 0;
    for (let r = 0; r < ROUNDS; r++) {
      svc.deps.caches.rates.clear();
      svc.deps.caches.holdings.clear();
      const before = reads[counter];
      const t = Date.now();
      const answers = await Promise.all(Array.from({ length: n }, () => send().then(async (res) => (await res.arrayBuffer(), res.status))));
      slowest += Date.now() - t;
      bad += answers.filter((s) => s !== 200).length;
      totalReads += reads[counter] - before;
    }
    console.log(`| ${name} | ${n} | ${(totalReads / ROUNDS).toFixed(1)} | ${(slowest / ROUNDS).toFixed(1)} | ${bad} |`);
  }
  await svc.stop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
