import { isChainName, type AccountModel, type ChainName } from '../../domain/chains';
import type { SandboxManifest } from '../../ports/deploymentManifest';

/** The sandbox's account model where SANDBOX_ACCOUNT_MODEL does not name one. */
export const DEFAULT_SANDBOX_ACCOUNT_MODEL: AccountModel = '7702';

/** The sandbox's account model per chain: `chains` where listed, else `default`. */
export interface SandboxAccountModels {
  default: AccountModel;
  chains: Partial<Record<ChainName, AccountModel>>;
}

const MODELS: readonly string[] = ['7702', 'plain'] satisfies AccountModel[];

/**
 * SANDBOX_ACCOUNT_MODEL: `7702`, `plain`, or a per-chain list
 * `ethereum-sepolia=7702,base-sepolia=plain` (chains not listed: the
 * default). Answers the problem in words instead when it is none of these.
 */
export function parseSandboxAccountModels(value: string | undefined): SandboxAccountModels | string {
  const text = (value ?? '').trim();
  if (text === '') return { default: DEFAULT_SANDBOX_ACCOUNT_MODEL, chains: {} };
  if (MODELS.includes(text)) return { default: text as AccountModel, chains: {} };
  const chains: Partial<Record<ChainName, AccountModel>> = {};
  for (const entry of text.split(',').map((e) => e.trim())) {
    const [chain, model, ...extra] = entry.split('=').map((p) => p.trim());
    if (!chain || !model || extra.length > 0) return `"${entry}" is not chain=model`;
    if (!isChainName(chain)) return `"${chain}" is not a chain name`;
    if (!MODELS.includes(model)) return `"${model}" (for ${chain}) is not an account model (${MODELS.join(' or ')})`;
    if (chains[chain]) return `${chain} is listed twice`;
    chains[chain] = model as AccountModel;
  }
  return { default: DEFAULT_SANDBOX_ACCOUNT_MODEL, chains };
}

/** The account model of `chain` under `models`. */
export function sandboxAccountModel(models: SandboxAccountModels, chain: ChainName): AccountModel {
  return models.chains[chain] ?? models.default;
}

/**
 * `manifest` with every chain's accountModel set as `models` says (the
 * sandbox's own manifest, or one loaded from SANDBOX_MANIFEST: tests sharing
 * devnets pick their model this way). A chain set to '7702' must have its
 * ERC-4337 contracts in the manifest.
 */
export function withSandboxAccountModels(manifest: SandboxManifest, models: SandboxAccountModels): SandboxManifest {
  const chains: SandboxManifest['chains'] = {};
  for (const [name, d] of Object.entries(manifest.chains) as [ChainName, NonNullable<SandboxManifest['chains'][ChainName]>][]) {
    const accountModel = sandboxAccountModel(models, name);
    if (accountModel === '7702' && !d.erc4337) {
      throw new Error(
        `SANDBOX_ACCOUNT_MODEL: ${name} is set to 7702, but the sandbox manifest has no erc4337 contracts for it (a sandbox of an older version?)`,
      );
    }
    chains[name] = { ...d, accountModel };
  }
  return { ...manifest, chains };
}
