/**
 * Paid (x402) reads against key-authenticated reads of the same route, same
 * run: GET /v1/yields on the service as `npm start` runs it (its own devnets).
 * Key reads: BENCH_N sequential requests with an API key. Paid reads: BENCH_N
 * sequential requests, each with a fresh v2 proof signed BEFORE the clock
 * starts (signing is the client's cost), so the figure is the server's verify
 * (signature, balance simulation) + nonce claim + the read + settlement (the
 * transferWithAuthorization transaction mined on the devnet) before it answers.
 *
 * Run: npx ts-node --transpile-only bench/paidReads.ts
 */
import { loadavg } from 'node:os';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startService } from '../src/service';
import { ms, summary } from './support/benchStats';
import type { Json } from '../test/helpers/server';
import { signProof } from '../test/helpers/x402Proof';

const N = Number(process.env.BENCH_N ?? 50);
const ADMIN = 'bench-admin-token-0123456789';

async function main(): Promise<void> {
  console.log(
    `command: npx ts-node --transpile-only bench/paidReads.ts   load average: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const svc = await startService(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN: ADMIN }), createLogger('silent'));
  try {
    const post = async (path: string, body: unknown): Promise<Json> => {
      const r = await fetch(svc.url + path, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return r.json();
    };
    const acct = await post('/admin/accounts', { plan: 'enterprise', requestsPerMinute: 1_000_000 });
    const account = privateKeyToAccount(generatePrivateKey());
    await post('/admin/sandbox/mint', { chain: 'base-sepolia', asset: 'USDC', address: account.address, amount: '10' });
    const offer = JSON.parse(Buffer.from((await fetch(`${svc.url}/v1/yields`)).headers.get('payment-required')!, 'base64').toString('utf8'));

    // valid an hour: the whole run
    const proofs: string[] = [];
    for (let i = 0; i < N + 1; i++) proofs.push(await signProof(account, offer, {}, { validForSeconds: 3600 }));

    const time = async (headers: Record<string, string>): Promise<number> => {
      const t = performance.now();
      const r = await fetch(`${svc.url}/v1/yields`, { headers });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`GET /v1/yields: ${r.status}`);
      return performance.now() - t;
    };
    // warm-up of both paths (caches, JIT, the facilitator's first calls)
    await time({ Authorization: `Bearer ${acct.apiKey.key}` });
    await time({ 'PAYMENT-SIGNATURE': proofs.pop()! });
    const keyed: number[] = [];
    const paid: number[] = [];
    for (let i = 0; i < N; i++) {
      keyed.push(await time({ Authorization: `Bearer ${acct.apiKey.key}` }));
      paid.push(await time({ 'PAYMENT-SIGNATURE': proofs[i]! }));
    }
    const k = summary(keyed);
    const p = summary(paid);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(`${N} sequential reads of GET /v1/yields each way, interleaved`);
    console.log('| read | p50 ms | p99 ms | mean ms | mean vs key |');
    console.log('|---|---|---|---|---|');
    console.log(`| API key (baseline) | ${ms(k.p50)} | ${ms(k.p99)} | ${ms(mean(keyed))} | 1.00× |`);
    console.log(
      `| x402 v2 proof (verify + claim + read + settle) | ${ms(p.p50)} | ${ms(p.p99)} | ${ms(mean(paid))} | ${(mean(paid) / mean(keyed)).toFixed(1)}× |`,
    );
  } finally {
    await svc.stop();
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
