import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { startChains, type RunningChains } from '../../../src/chain/startChains';
import { FINALITY_FAST, FINALITY_STANDARD } from '../../../src/chain/cctp/messageV2';
import { testnetPace } from '../../../src/chain/sandbox/timing';
import { CHAINS, TEST_CHAINS, type ChainName } from '../../../src/domain/chains';
import type { SignedTx } from '../../../src/ports/chain';
import { setBlockTime } from '../../../src/chain/sandbox/devnets';

/**
 * A sandbox of its own at the test networks' pace, 40 times faster
 * (SANDBOX_TIMING=testnets, SANDBOX_SPEED=40 as startChains gets them from
 * the config): Sepolia mines every 300 ms, Base Sepolia every 50 ms, Arbitrum
 * Sepolia every 6 ms, and the attestation service answers a Sepolia burn
 * 500 ms (fast) or 19.5 s (standard) after it was mined. Only orderings and
 * lower bounds are asserted: a loaded machine makes everything slower, never faster.
 */
const SPEED = 40;
const pace = testnetPace(TEST_CHAINS, SPEED);
const FROM: ChainName = 'ethereum-sepolia';
const TO: ChainName = 'base-sepolia';

let chains: RunningChains;

beforeAll(async () => {
  chains = await startChains({ chainMode: 'sandbox', sandboxBlockTimeMs: 0, sandboxTiming: { timing: 'testnets', speed: SPEED }, rpcUrls: {} });
}, 120_000);
afterAll(() => chains?.stop());

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const keep = async (_: SignedTx): Promise<void> => undefined;

test("behavior: each devnet mines at its test network's block time / 40: blocks come no faster than that, Arbitrum's most often, Sepolia's least", async () => {
  const heights = () => Promise.all(TEST_CHAINS.map((ch) => chains.client(ch)!.client.getBlockNumber({ cacheTime: 0 })));
  const windowMs = 3_000;
  const before = await heights();
  const started = performance.now();
  await sleep(windowMs);
  const after = await heights();
  const elapsed = performance.now() - started;
  const mined = Object.fromEntries(TEST_CHAINS.map((ch, i) => [ch, Number(after[i]! - before[i]!)])) as Record<ChainName, number>;
  for (const ch of TEST_CHAINS) {
    expect(mined[ch]).toBeGreaterThan(0); // interval mining: blocks come without transactions
    // never faster than the scaled block time (one block of slack for the window's edges and the reads' own time)
    expect(mined[ch]).toBeLessThanOrEqual(Math.ceil((elapsed + 500) / pace.blockTimeMs[ch]!) + 1);
  }
  expect(mined['ethereum-sepolia']).toBeLessThan(mined['base-sepolia']);
  expect(mined['base-sepolia']).toBeLessThan(mined['arbitrum-sepolia']);
  // The attestation test below needs Sepolia's pace only: the L2 devnets, a block every 6 and 50 ms, go back to one
  // block per transaction so they stop taking the machine's two cores from the files running beside this one.
  await Promise.all((['arbitrum-sepolia', 'base-sepolia'] as const).map((ch) => setBlockTime(chains.manifest.chains[ch]!.rpcUrl, 0)));
}, 30_000);

/** When the attestation service first answers `complete` for the burn `txHash` from `FROM` (performance.now()). */
async function completeAt(txHash: Hex): Promise<number> {
  const url = `${chains.manifest.attestationApi}/v2/messages/${CHAINS[FROM].cctpDomain}?transactionHash=${txHash}`;
  for (;;) {
    const res = await fetch(url);
    if (res.status === 200) {
      const body = (await res.json()) as { messages: { status: string }[] };
      if (body.messages[0]?.status === 'complete') return performance.now();
    } else {
      await res.body?.cancel();
    }
    await sleep(20);
  }
}

test('behavior: the attestation service answers a Sepolia burn after the scaled delay: fast not before 500 ms, standard not before 19.5 s after it was sent', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const amount = 2_000_000n;
  await chains.controls!.mint({ chain: FROM, asset: 'USDC', address: wallet.address, amount: 2n * amount });
  const approve = await chains.port.send(wallet, { kind: 'approve', chain: FROM, asset: 'USDC', spender: 'bridge', amount: 2n * amount }, keep);
  expect((await chains.port.receipt(FROM, approve.txHash))?.status).toBe('success');

  const burn = async (minFinalityThreshold: 1000 | 2000): Promise<{ sentAt: number; txHash: Hex }> => {
    const sentAt = performance.now();
    const signed = await chains.port.send(wallet, { kind: 'burn', chain: FROM, toChain: TO, amount, maxFee: amount / 100n, minFinalityThreshold }, keep);
    return { sentAt, txHash: signed.txHash };
  };
  const fast = await burn(FINALITY_FAST);
  const standard = await burn(FINALITY_STANDARD);
  const [fastDone, standardDone] = await Promise.all([completeAt(fast.txHash), completeAt(standard.txHash)]);

  const delay = pace.attestationDelayMs[FROM]!;
  expect(delay).toEqual({ fast: 500, standard: 19_500 });
  // the service starts a burn's delay when it first sees it mined, which is after it was sent
  expect(fastDone - fast.sentAt).toBeGreaterThanOrEqual(delay.fast);
  expect(standardDone - standard.sentAt).toBeGreaterThanOrEqual(delay.standard);
  expect(fastDone).toBeLessThan(standardDone);
}, 90_000);
