import { createPublicClient, erc20Abi, http, type Address } from 'viem';
import { startTestServer, type TestServer } from '../helpers/server';
import { createSoftToken, softhsmMissing, type SoftToken } from '../helpers/softhsm';
import { expectCompleted, intentHttp, positionOn, txKinds, usdc, type IntentHttp } from '../integration/engine/intentsHttpHelpers';

/**
 * KEY_PROVIDER=pkcs11 (a SoftHSM2 token of this file's own) on the devnets:
 * the wallet's EIP-2612 permit of a plain-path Aave deposit is signed in the
 * token like its transactions, and the deposit is one transaction. Skipped,
 * with the reason printed, without the module or the binding.
 */
const missing = softhsmMissing();
if (missing) console.warn(`supplyPermitPkcs11: skipped: ${missing}`);
const run = missing ? describe.skip : describe;

let soft: SoftToken;
let srv: TestServer;
let api: IntentHttp;

async function tokenSignatures(): Promise<number> {
  const text = await (await fetch(`${srv.url}/metrics`)).text();
  const m = /^key_signatures_total\{provider="pkcs11",outcome="signed"\} (\d+)$/m.exec(text);
  return m ? Number(m[1]) : 0;
}

const clientOf = (chain: 'base-sepolia') => createPublicClient({ transport: http(srv.service.chains.manifest.chains[chain]!.rpcUrl) });

run('KEY_PROVIDER=pkcs11: a permit supply', () => {
  beforeAll(async () => {
    soft = createSoftToken();
    srv = await startTestServer({ ...soft.env, SANDBOX_ACCOUNT_MODEL: 'plain' });
    api = intentHttp(srv, (await srv.admin.createAccount({ plan: 'enterprise' })).key);
  }, 120_000);
  afterAll(async () => {
    await srv?.stop();
    soft?.remove();
  });

  test('behavior: a lend of USDC to Aave is one transaction whose permit and signature the token made; no allowance left', async () => {
    const w = await api.fundedWallet('pkcs11-permit', { 'base-sepolia': '6' });
    const d = srv.service.chains.manifest.chains['base-sepolia']!;
    const before = await tokenSignatures();

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 4, chain: 'base-sepolia' });

    expectCompleted(done);
    expect(txKinds(done)).toEqual(['supply@base-sepolia']);
    // one transaction from the wallet (its nonce), and the token signed at least it and its permit
    expect(await clientOf('base-sepolia').getTransactionCount({ address: w.address as Address })).toBe(1);
    expect((await tokenSignatures()) - before).toBeGreaterThanOrEqual(2);
    const allowance = await clientOf('base-sepolia').readContract({
      address: d.tokens.USDC!,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [w.address as Address, d.aavePool!],
    });
    expect(allowance).toBe(0n);
    expect(positionOn(await api.balances(w.id), 'base-sepolia', 'aave-v3')).toBeGreaterThanOrEqual(usdc('4') - 1n);
  }, 180_000);
});
