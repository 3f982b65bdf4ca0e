import { z } from 'zod';
import { CHAIN_NAMES, TOKEN_ASSETS, type TokenAsset } from '../../domain/chains';
import type { SandboxManifest } from '../../ports/deploymentManifest';

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');
const asset = z.enum(TOKEN_ASSETS as [TokenAsset, ...TokenAsset[]]);
const sandboxOnly = z.literal(true).optional();

const market = z.discriminatedUnion('protocol', [
  z.strictObject({ protocol: z.literal('aave-v3'), asset, token: address, aToken: address, sandboxOnly }),
  z.strictObject({ protocol: z.literal('compound-v3'), asset, token: address, comet: address, sandboxOnly }),
]);

const deployment = z
  .strictObject({
    chain: z.enum(CHAIN_NAMES),
    chainId: z.number().int().positive(),
    rpcUrl: z.string(),
    tokens: z.partialRecord(asset, address),
    aavePool: address.nullable(),
    aaveRateStrategy: address.optional(),
    markets: z.array(market),
    tokenMessenger: address,
    messageTransmitter: address,
    ethUsdFeed: address,
  })
  .superRefine((d, ctx) => {
    const seen = new Set<string>();
    d.markets.forEach((m, i) => {
      const key = `${m.protocol} ${m.asset}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['markets', i], message: `a second ${key} market` });
      seen.add(key);
      // a market's token is the chain's token of its asset: "USDC" is Circle's USDC, never a protocol's faucet token of that symbol
      const expected = d.tokens[m.asset];
      if (!expected || expected.toLowerCase() !== m.token.toLowerCase()) {
        ctx.addIssue({
          code: 'custom',
          path: ['markets', i, 'token'],
          message: `${key}: token ${m.token} is not the chain's ${m.asset} (${expected ?? 'none listed'})`,
        });
      }
      if (m.protocol === 'aave-v3' && d.aavePool === null) ctx.addIssue({ code: 'custom', path: ['markets', i], message: `${key} needs aavePool` });
    });
  });

const manifestSchema = z
  .strictObject({
    attester: address,
    attestationApi: z.string().optional(),
    chains: z.partialRecord(z.enum(CHAIN_NAMES), deployment),
  })
  .superRefine((m, ctx) => {
    for (const [name, d] of Object.entries(m.chains)) {
      if (d && d.chain !== name) ctx.addIssue({ code: 'custom', path: ['chains', name, 'chain'], message: `chain ${d.chain} listed under ${name}` });
    }
  });

/**
 * A deployment manifest (CHAIN_MANIFEST, SANDBOX_MANIFEST) checked before the
 * service trusts an address of it; every problem is named with its path.
 */
export function parseManifest(json: unknown, source: string): SandboxManifest {
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n');
    throw new Error(`${source} is not a valid deployment manifest:\n${problems}`);
  }
  return parsed.data as SandboxManifest;
}
