import { startTestServer, type TestServer, type TestAccount, ADMIN_TOKEN } from '../../helpers/server';

/** REST and GraphQL reads of the real sandbox devnets: balances, yields, demo funding. */
let srv: TestServer;
let acct: TestAccount;

beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST! });
  acct = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 1000 });
});
afterAll(() => srv?.stop());

async function newWallet(userId: string): Promise<{ id: string; address: string }> {
  const r = await srv.rest('POST', '/v1/wallets', { key: acct.key, body: { userId } });
  expect(r.status).toBe(201);
  return r.body;
}

const admin = (path: string, body: unknown) => srv.rest('POST', `/admin/sandbox/${path}`, { key: ADMIN_TOKEN, body });

/** Polls balances until `until` holds (funds arrive after the transaction is mined). */
async function balancesWhen(walletId: string, until: (b: any) => boolean): Promise<any> {
  for (let i = 0; i < 50; i++) {
    const r = await srv.rest('GET', `/v1/balances/${walletId}`, { key: acct.key });
    expect(r.status).toBe(200);
    if (until(r.body)) return r.body;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('balances never matched');
}

const sumEntries = (report: any) =>
  report.chains.reduce((s: number, c: any) => s + [...c.tokens, ...c.positions].reduce((t: number, e: any) => t + e.valueUsd, 0), 0);

describe('demo funding and balances', () => {
  it('behavior: a new wallet funded through /v1/demo/fund shows exactly 1 USDC on arbitrum-sepolia and nothing elsewhere', async () => {
    const w = await newWallet('fund-once');
    const fund = await srv.rest('POST', '/v1/demo/fund', { key: acct.key, body: { walletId: w.id } });
    expect(fund.status).toBe(202);
    expect(fund.body).toMatchObject({ walletId: w.id, chain: 'arbitrum-sepolia', asset: 'USDC', amount: '1', status: 'submitted' });
    expect(fund.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);

    const report = await balancesWhen(w.id, (b) => b.chains.some((c: any) => c.tokens.length > 0));
    expect(report.walletId).toBe(w.id);
    expect(report.address).toBe(w.address);
    expect(report.chains.map((c: any) => c.chain)).toEqual(['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia']);
    const arb = report.chains.find((c: any) => c.chain === 'arbitrum-sepolia');
    // Circle's USDC, named by its contract (at Circle's address on arbitrum-sepolia)
    expect(arb.tokens).toEqual([
      { asset: 'USDC', token: '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d', balance: '1000000', balanceFormatted: '1', decimals: 6, valueUsd: 1 },
    ]);
    for (const c of report.chains.filter((x: any) => x.chain !== 'arbitrum-sepolia')) {
      expect(c.tokens).toEqual([]);
      expect(c.positions).toEqual([]);
    }
    expect(report.totalValueUsd).toBe(1);
  });

  it('behavior: supplied chain and amount are ignored and named in warnings', async () => {
    const w = await newWallet('fund-warnings');
    const fund = await srv.rest('POST', '/v1/demo/fund', { key: acct.key, body: { walletId: w.id, chain: 'base-sepolia', amount: 50 } });
    expect(fund.status).toBe(202);
    expect(fund.body.chain).toBe('arbitrum-sepolia');
    expect(fund.body.warnings).toHaveLength(2);
  });

  it('error: the 11th funding of a wallet within 24 h is 429 FUNDING_LIMIT_EXCEEDED', async () => {
    const w = await newWallet('fund-limit');
    for (let i = 0; i < 10; i++) {
      expect((await srv.rest('POST', '/v1/demo/fund', { key: acct.key, body: { walletId: w.id } })).status).toBe(202);
    }
    const r = await srv.rest('POST', '/v1/demo/fund', { key: acct.key, body: { walletId: w.id } });
    expect(r.status).toBe(429);
    expect(r.body.error).toBe('FUNDING_LIMIT_EXCEEDED');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('error: funding an unknown wallet is 404 WALLET_NOT_FOUND', async () => {
    const r = await srv.rest('POST', '/v1/demo/fund', { key: acct.key, body: { walletId: 'svc_wallet_nope' } });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('WALLET_NOT_FOUND');
  });

  it('behavior: totalValueUsd equals the sum of the entries, ETH priced by the feed', async () => {
    const w = await newWallet('mixed-holdings');
    expect((await admin('mint', { chain: 'base-sepolia', asset: 'WETH', address: w.address, amount: '0.5' })).status).toBe(200);
    expect((await admin('mint', { chain: 'ethereum-sepolia', asset: 'DAI', address: w.address, amount: '12.345' })).status).toBe(200);
    expect((await admin('mint', { chain: 'arbitrum-sepolia', asset: 'USDT', address: w.address, amount: '3.5' })).status).toBe(200);
    const report = await balancesWhen(w.id, (b) => b.chains.every((c: any) => c.tokens.length > 0));
    const weth = report.chains.find((c: any) => c.chain === 'base-sepolia').tokens[0];
    expect(weth).toMatchObject({ asset: 'WETH', balance: '500000000000000000', balanceFormatted: '0.5', decimals: 18, valueUsd: 1500 });
    expect(report.totalValueUsd).toBeCloseTo(sumEntries(report), 6);
    expect(report.totalValueUsd).toBeCloseTo(1500 + 12.345 + 3.5, 6);
  });

  it('behavior: an aToken position shows in balances and grows after the devnet time is advanced', async () => {
    const w = await newWallet('lender');
    const deps = srv.service.deps;
    await admin('mint', { chain: 'base-sepolia', asset: 'USDC', address: w.address, amount: '100' });
    const signer = await deps.keyVault.signer(w.id);
    for (const tx of [
      { kind: 'approve', chain: 'base-sepolia', asset: 'USDC', spender: 'aave-v3', amount: 100_000_000n },
      { kind: 'supply', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: 100_000_000n },
    ] as const) {
      const sent = await deps.chains.send(signer, tx, async () => {});
      expect((await deps.chains.receipt('base-sepolia', sent.txHash))?.status).toBe('success');
    }
    deps.caches.holdings.clear();
    const before = await balancesWhen(w.id, (b) => b.chains.some((c: any) => c.positions.length > 0));
    const pos0 = before.chains.find((c: any) => c.chain === 'base-sepolia').positions[0];
    expect(pos0).toMatchObject({ protocol: 'aave-v3', asset: 'USDC', decimals: 6 });
    expect(BigInt(pos0.balance)).toBeGreaterThanOrEqual(100_000_000n);

    expect((await admin('time', { chain: 'base-sepolia', seconds: 30 * 86400 })).status).toBe(200);
    const after = await srv.rest('GET', `/v1/balances/${w.id}`, { key: acct.key });
    const pos1 = after.body.chains.find((c: any) => c.chain === 'base-sepolia').positions[0];
    // 30 days at the base-sepolia USDC rate (≈ 4.2 % APR) is ≈ 0.34 USDC on 100.
    expect(BigInt(pos1.balance) - BigInt(pos0.balance)).toBeGreaterThan(300_000n);
    expect(after.body.totalValueUsd).toBeCloseTo(sumEntries(after.body), 6);
  });
});

describe('yields', () => {
  it('behavior: rates per chain, protocol and asset with a best pick whose reasoning names the comparison', async () => {
    const r = await srv.rest('GET', '/v1/yields', { key: acct.key });
    expect(r.status).toBe(200);
    const protocols = new Set(r.body.rates.map((x: any) => x.protocol));
    expect(protocols).toEqual(new Set(['aave-v3', 'compound-v3']));
    for (const x of r.body.rates) expect(x.apy).toBeGreaterThan(0);
    const usdc = r.body.rates.filter((x: any) => x.asset === 'USDC');
    const top = Math.max(...usdc.map((x: any) => x.apy));
    expect(r.body.best.asset).toBe('USDC');
    expect(r.body.best.apy).toBe(top);
    expect(r.body.best.reasoning).toContain(r.body.best.chain);
    expect(r.body.best.reasoning).toMatch(/compared with/);
  });

  it("behavior: each market names its token, USDC is Circle's everywhere, and the markets only the sandbox has are marked sandboxOnly", async () => {
    const r = await srv.rest('GET', '/v1/yields?asset=USDC', { key: acct.key });
    expect(r.status).toBe(200);
    const chains = srv.service.chains.manifest.chains;
    const usdc = r.body.rates.map((x: any) => ({ market: `${x.chain}/${x.protocol}`, token: x.token, sandboxOnly: x.sandboxOnly }));
    expect(usdc.sort((a: any, b: any) => a.market.localeCompare(b.market))).toEqual([
      // the real test networks: Aave lends Circle's USDC on arbitrum-sepolia only, Compound III on ethereum-sepolia only
      { market: 'arbitrum-sepolia/aave-v3', token: chains['arbitrum-sepolia']!.tokens.USDC, sandboxOnly: false },
      { market: 'base-sepolia/aave-v3', token: chains['base-sepolia']!.tokens.USDC, sandboxOnly: true },
      { market: 'ethereum-sepolia/aave-v3', token: chains['ethereum-sepolia']!.tokens.USDC, sandboxOnly: true },
      { market: 'ethereum-sepolia/compound-v3', token: chains['ethereum-sepolia']!.tokens.USDC, sandboxOnly: false },
    ]);
    expect(r.body.best).toEqual(
      expect.objectContaining({ chain: 'base-sepolia', protocol: 'aave-v3', sandboxOnly: true, token: chains['base-sepolia']!.tokens.USDC }),
    );
    const q = await srv.gql('query { yields(asset: USDC) { rates { chain protocol token sandboxOnly } } }', {}, acct.key);
    expect(
      q.body.data.yields.rates
        .filter((x: any) => x.sandboxOnly)
        .map((x: any) => x.chain)
        .sort(),
    ).toEqual(['BASE_SEPOLIA', 'ETHEREUM_SEPOLIA']);
  });

  it('error: DAI is refused on base-sepolia (no market, no mint)', async () => {
    const y = await srv.rest('GET', '/v1/yields?asset=DAI&chain=base-sepolia', { key: acct.key });
    expect(y.status).toBe(200);
    expect(y.body.rates).toEqual([]);
    const mint = await admin('mint', { chain: 'base-sepolia', asset: 'DAI', address: '0x000000000000000000000000000000000000dEaD', amount: '1' });
    expect(mint.status).toBe(400);
    expect(mint.body.error).toBe('INVALID_REQUEST');
  });

  it('error: an unknown chain filter names the field', async () => {
    const r = await srv.rest('GET', '/v1/yields?chain=solana', { key: acct.key });
    expect(r.status).toBe(400);
    expect(r.body.details.issues[0].path).toBe('chain');
  });
});

describe('GraphQL', () => {
  it('behavior: balances, yields and fundDemoWallet answer like REST', async () => {
    const w = await newWallet('gql-funded');
    const fund = await srv.gql(`mutation($id: ID!) { fundDemoWallet(walletId: $id) { chain asset amount status txHash } }`, { id: w.id }, acct.key);
    expect(fund.body.errors).toBeUndefined();
    expect(fund.body.data.fundDemoWallet).toMatchObject({ chain: 'ARBITRUM_SEPOLIA', asset: 'USDC', amount: '1', status: 'SUBMITTED' });
    await balancesWhen(w.id, (b) => b.totalValueUsd === 1);
    const q = await srv.gql(
      `query($id: ID!) { balances(walletId: $id) { walletId totalValueUsd chains { chain tokens { asset balance decimals valueUsd } } }
         yields(asset: USDC) { best { chain apy reasoning } rates { chain protocol apy } } }`,
      { id: w.id },
      acct.key,
    );
    expect(q.body.errors).toBeUndefined();
    expect(q.body.data.balances.totalValueUsd).toBe(1);
    expect(q.body.data.balances.chains[1]).toEqual({ chain: 'ARBITRUM_SEPOLIA', tokens: [{ asset: 'USDC', balance: '1000000', decimals: 6, valueUsd: 1 }] });
    expect(q.body.data.yields.rates.length).toBeGreaterThan(2);
  });

  it('error: balances of an unknown wallet carry extensions.code WALLET_NOT_FOUND', async () => {
    const q = await srv.gql(`{ balances(walletId: "svc_wallet_nope") { walletId } }`, {}, acct.key);
    expect(q.body.errors[0].extensions.code).toBe('WALLET_NOT_FOUND');
  });
});
