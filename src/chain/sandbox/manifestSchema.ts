import { z } from 'zod';
import { CHAIN_NAMES, TOKEN_ASSETS, type AccountModel, type TokenAsset } from '../../domain/chains';
import type { ChainDeployment, ManifestMarket, SandboxManifest } from '../../ports/deploymentManifest';
import { DEFAULT_PROTOCOLS, type ProtocolRegistry } from '../protocols/registry';

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address');
const asset = z.enum(TOKEN_ASSETS as [TokenAsset, ...TokenAsset[]]);
const sandboxOnly = z.literal(true).optional();
const ACCOUNT_MODELS = ['7702', 'plain'] as const satisfies readonly AccountModel[];

/** The manifest's schema for the protocols of `protocols`: each module adds its market's fields and its deployment-wide ones. */
function manifestSchemaOf(protocols: ProtocolRegistry) {
  const [first, ...rest] = protocols.modules.map((p) => z.strictObject({ protocol: z.literal(p.name), asset, token: address, sandboxOnly, ...p.marketFields }));
  if (!first) throw new Error('parseManifest: no lending protocol modules');
  const market = z.discriminatedUnion('protocol', [first, ...rest]);
  const owned = Object.assign({}, ...protocols.modules.map((p) => p.deploymentFields ?? {})) as z.ZodRawShape;

  const deployment = z
    .strictObject({
      chain: z.enum(CHAIN_NAMES),
      chainId: z.number().int().positive(),
      rpcUrl: z.string(),
      tokens: z.partialRecord(asset, address),
      ...owned,
      markets: z.array(market),
      tokenMessenger: address,
      messageTransmitter: address,
      ethUsdFeed: address,
      accountModel: z.enum(ACCOUNT_MODELS).optional(),
      erc4337: z.strictObject({ entryPoint: address, delegate: address, paymaster: address }).optional(),
    })
    .superRefine((d, ctx) => {
      if (d.accountModel === '7702' && !d.erc4337) {
        ctx.addIssue({ code: 'custom', path: ['erc4337'], message: "required when accountModel is '7702' (entryPoint, delegate, paymaster)" });
      }
      // the zero address holds the place of a paymaster the operator has yet to deploy (deploy/testnets.json)
      if (d.accountModel === '7702' && d.erc4337 && /^0x0{40}$/.test(d.erc4337.paymaster)) {
        ctx.addIssue({
          code: 'custom',
          path: ['erc4337', 'paymaster'],
          message:
            "is the zero address (no paymaster yet): deploy the service's paymaster with `npm run paymaster:deploy` and put its address here, or set accountModel to 'plain'",
        });
      }
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
        const problem = protocols.get(m.protocol).checkMarket?.(d as unknown as ChainDeployment, m as ManifestMarket);
        if (problem) ctx.addIssue({ code: 'custom', path: ['markets', i], message: `${key} ${problem}` });
      });
    });

  return z
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
}

/**
 * A deployment manifest (CHAIN_MANIFEST, SANDBOX_MANIFEST) checked before the
 * service trusts an address of it; every problem is named with its path.
 */
export function parseManifest(json: unknown, source: string, protocols: ProtocolRegistry = DEFAULT_PROTOCOLS): SandboxManifest {
  const parsed = manifestSchemaOf(protocols).safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n');
    throw new Error(`${source} is not a valid deployment manifest:\n${problems}`);
  }
  return parsed.data as SandboxManifest;
}
