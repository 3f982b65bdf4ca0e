import { createPublicClient, createWalletClient, http, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { cctpFee } from '../../../src/domain/cctpFee';
import { decodeMessageV2, FINALITY_FAST } from '../../../src/chain/cctp/messageV2';
import type { SignedTx } from '../../../src/ports/chain';
import { sandboxTokenAbi } from '../../../src/chain/sandbox/abis';
import { SANDBOX_ADDRESSES, SANDBOX_KEYS } from '../../../src/chain/sandbox/accounts';
import { startIrisServer, type IrisServer } from '../../../src/chain/sandbox/iris/irisServer';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';
import { createViemChainPort, type ViemChainPort } from '../../../src/chain/viem/createViemChainPort';
import { CHAINS, type ChainName } from '../../../src/domain/chains';
import { isTransient } from '../../../src/engine/retry';
import { loadSandboxManifest, sandboxChain } from '../../setup/sandbox';

/**
 * The chain port's CCTP v2 path on the devnets: fee tiers read from the
 * attestation service (cached, droppable), a 7-argument burn, its attestation
 * fetched over HTTP, v2's nonce telling whether the message was received, and
 * the amount a mint delivered read from its receipt. The attestation service
 * is this suite's own (same attester key as the sandbox's, so the
 * transmitters accept it), so changing its fees reaches no other suite.
 */

const manifest = loadSandboxManifest();
const FROM: ChainName = 'ethereum-sepolia';
const TO: ChainName = 'base-sepolia';
const FAST_BPS = 3;

let iris: IrisServer;
let port: ViemChainPort;

beforeAll(async () => {
  iris = await startIrisServer({
    chains: Object.values(manifest.chains).map((d) => ({
      chain: d!.chain,
      domain: CHAINS[d!.chain].cctpDomain,
      rpcUrl: d!.rpcUrl,
      messageTransmitter: d!.messageTransmitter,
    })),
    attesterKey: SANDBOX_KEYS.attester,
    feesBps: { fast: FAST_BPS, standard: 0 },
  });
  port = createViemChainPort({
    manifest: { ...manifest, attestationApi: iris.url },
    keys: { gasTank: SANDBOX_KEYS.gasTank, faucet: SANDBOX_KEYS.faucet },
    pollingIntervalMs: 20,
  });
});

afterAll(async () => {
  await port?.close();
  await iris?.close();
});

async function mintUsdc(chain: ChainName, to: Address, amount: bigint): Promise<void> {
  const d = sandboxChain(manifest, chain);
  const transport = http(d.rpcUrl, { retryCount: 0 });
  const faucet = createWalletClient({ account: SANDBOX_ADDRESSES.faucet, chain: viemChainFor(chain, d.rpcUrl), transport });
  const hash = await faucet.writeContract({ address: d.tokens.USDC!, abi: sandboxTokenAbi, functionName: 'mint', args: [to, amount] });
  await createPublicClient({ chain: viemChainFor(chain, d.rpcUrl), transport, pollingInterval: 20 }).waitForTransactionReceipt({ hash });
}

const keep = async (_: SignedTx): Promise<void> => undefined;

test("behavior: routeFees() answers the service's fast and standard tiers for every route, kept until dropRouteFees()", async () => {
  const fees = await port.routeFees();
  for (const from of port.chains) for (const to of port.chains) if (from !== to) expect(fees[from]?.[to]).toEqual({ fast: FAST_BPS, standard: 0 });

  iris.setFees({ fast: 1.3 });
  try {
    expect((await port.routeFees())[FROM]?.[TO]).toEqual({ fast: FAST_BPS, standard: 0 });
    port.dropRouteFees();
    expect((await port.routeFees())[FROM]?.[TO]).toEqual({ fast: 1.3, standard: 0 });
  } finally {
    iris.setFees({ fast: FAST_BPS });
    port.dropRouteFees();
  }
});

test("behavior: burn (maxFee, fast) → attestation over HTTP → relayer mint delivering amount − fee; messageReceived finds the mint by v2's nonce", async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const amount = 2_500_000n;
  const maxFee = cctpFee(amount, FAST_BPS);
  await mintUsdc(FROM, wallet.address, amount);

  const approve = await port.send(wallet, { kind: 'approve', chain: FROM, asset: 'USDC', spender: 'bridge', amount }, keep);
  expect((await port.receipt(FROM, approve.txHash))?.status).toBe('success');
  const burn = await port.send(wallet, { kind: 'burn', chain: FROM, toChain: TO, amount, maxFee, minFinalityThreshold: FINALITY_FAST }, keep);
  const burnReceipt = await port.receipt(FROM, burn.txHash);
  expect(burnReceipt).toMatchObject({ status: 'success' });
  expect(burnReceipt?.minted).toBeUndefined();

  const { message, attestation } = await port.attest(FROM, burn.txHash);
  const decoded = decodeMessageV2(message);
  expect(decoded).toMatchObject({ sourceDomain: CHAINS[FROM].cctpDomain, destinationDomain: CHAINS[TO].cctpDomain, finalityThresholdExecuted: FINALITY_FAST });
  expect(decoded.nonce).not.toBe(`0x${'00'.repeat(32)}`);
  expect(await port.messageReceived(TO, message)).toBeNull();

  const mint = await port.send('relayer', { kind: 'mint', chain: TO, message, attestation }, keep);
  const minted = await port.receipt(TO, mint.txHash);
  expect(minted).toMatchObject({ status: 'success', minted: amount - maxFee });
  expect(await port.messageReceived(TO, message)).toBe(mint.txHash);
  const [held] = await port.holdings(wallet.address, [TO]);
  expect(held?.tokens.find((t) => t.asset === 'USDC')?.balance).toBe(amount - maxFee);
});

test('error: the sandbox attestation-error fault fails the fetch as a transient NETWORK_ERROR; the next try attests', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const amount = 1_000_000n;
  await mintUsdc(FROM, wallet.address, amount);
  await port.receipt(FROM, (await port.send(wallet, { kind: 'approve', chain: FROM, asset: 'USDC', spender: 'bridge', amount }, keep)).txHash);
  const burn = await port.send(
    wallet,
    { kind: 'burn', chain: FROM, toChain: TO, amount, maxFee: cctpFee(amount, FAST_BPS), minFinalityThreshold: FINALITY_FAST },
    keep,
  );
  await port.receipt(FROM, burn.txHash);

  port.faults.register(FROM, 'attestation-error', 1);
  const failed = await port.attest(FROM, burn.txHash).then(
    () => null,
    (e: unknown) => e,
  );
  expect(failed).toMatchObject({ code: 'NETWORK_ERROR', details: { service: 'attestation', sourceDomain: CHAINS[FROM].cctpDomain, txHash: burn.txHash } });
  expect(isTransient(failed)).toBe(true);
  await expect(port.attest(FROM, burn.txHash)).resolves.toMatchObject({ message: expect.stringMatching(/^0x/) });
});
