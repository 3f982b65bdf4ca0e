/**
 * The key providers side by side: the local vault against a SoftHSM2 token
 * (KEY_PROVIDER=pkcs11), in one run. For each: signatures per second and the
 * p99 latency of one digest signature, with 1,000 signatures over 10 wallets
 * run 50 at a time; and the longest event-loop stall while they run (a timer
 * every 1 ms measures how late it fires). The local row is the baseline; the
 * token's figures are printed as ratios against it.
 *
 * Run: npx ts-node --transpile-only bench/keyProviders.ts
 */
import { randomBytes } from 'node:crypto';
import { keccak256, toHex } from 'viem';
import { createLocalProvider } from '../src/chain/keys/localProvider';
import { createPkcs11Provider } from '../src/chain/keys/pkcs11/pkcs11Provider';
import { openPkcs11Token } from '../src/chain/keys/pkcs11/pkcs11Token';
import type { KeyProvider } from '../src/ports/keyProvider';
import { createMemoryStore } from '../src/store/memory/memoryStore';
import { createSoftToken, softhsmMissing, SOFTHSM_MODULE } from '../test/helpers/softhsm';

const SIGNATURES = 1_000;
const CONCURRENCY = 50;
const WALLETS = 10;

interface Row {
  name: string;
  perSecond: number;
  p99Ms: number;
  stallMs: number;
}

/** The longest delay of a 1 ms timer while `work` runs: how long the event loop was held. */
async function longestStall<T>(work: () => Promise<T>): Promise<[T, number]> {
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 1);
    last = now;
  }, 1);
  try {
    const out = await work();
    // work that never yields to timers holds the loop until here
    worst = Math.max(worst, performance.now() - last - 1);
    return [out, worst];
  } finally {
    clearInterval(timer);
  }
}

async function measure(name: string, provider: KeyProvider): Promise<Row> {
  const ids = Array.from({ length: WALLETS }, (_, i) => `svc_wallet_bench${i}`);
  for (const id of ids) await provider.createKey(id);
  // warm: each key found and (local) decrypted once
  await Promise.all(ids.map((id) => provider.signDigest(id, keccak256(toHex(id)))));
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < SIGNATURES) {
      const i = next++;
      const started = performance.now();
      await provider.signDigest(ids[i % WALLETS]!, keccak256(toHex(i)));
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  const [, stallMs] = await longestStall(() => Promise.all(Array.from({ length: CONCURRENCY }, worker)));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, perSecond: SIGNATURES / seconds, p99Ms: latencies[Math.floor(latencies.length * 0.99)]!, stallMs };
}

async function main(): Promise<void> {
  const missing = softhsmMissing();
  if (missing) throw new Error(`bench/keyProviders: ${missing}`);
  const store = createMemoryStore();
  const local = createLocalProvider({ masterKey: randomBytes(32), walletKeys: () => store.walletKeys, serviceKeys: {} });
  const soft = createSoftToken();
  const tokenStore = createMemoryStore();
  const pkcs11 = createPkcs11Provider({
    token: openPkcs11Token({ module: SOFTHSM_MODULE, tokenLabel: soft.label, pin: soft.pin, sessions: 4 }),
    walletKeys: () => tokenStore.walletKeys,
  });
  try {
    const rows = [await measure('local (baseline)', local), await measure('pkcs11 (SoftHSM2, 4 sessions)', pkcs11)];
    const base = rows[0]!;
    console.log(`${SIGNATURES} digest signatures over ${WALLETS} wallets, ${CONCURRENCY} at a time`);
    console.log('provider | signatures/s | p99 ms | longest event-loop stall ms | signatures/s vs local | p99 vs local');
    for (const r of rows) {
      console.log(
        `${r.name} | ${r.perSecond.toFixed(0)} | ${r.p99Ms.toFixed(2)} | ${r.stallMs.toFixed(1)} | ${(r.perSecond / base.perSecond).toFixed(2)} | ${(r.p99Ms / base.p99Ms).toFixed(2)}`,
      );
    }
  } finally {
    await pkcs11.close();
    soft.remove();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
