import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, DEFAULT_SANDBOX_ACCOUNT_MODEL, loadConfig } from '../../../src/config';
import { parseManifest } from '../../../src/chain/sandbox/manifestSchema';
import { parseSandboxAccountModels, withSandboxAccountModels } from '../../../src/chain/sandbox/accountModels';
import { ERC4337_V08 } from '../../../src/chain/sandbox/erc4337/canonical';
import type { SandboxManifest } from '../../../src/ports/deploymentManifest';

/**
 * The manifest's account model per chain (`accountModel`, `erc4337`) and the
 * sandbox's SANDBOX_ACCOUNT_MODEL, which sets it on the sandbox's manifest
 * and on a loaded one.
 */
const base = (): SandboxManifest => JSON.parse(readFileSync(join(__dirname, '../../../deploy/testnets.json'), 'utf8')) as SandboxManifest;
const ERC4337 = { ...ERC4337_V08, paymaster: '0x1fDe0D8BFf3fc8D4B73667Ab821F7E4AeF6004d0' as const };

/** A manifest with no account model on any chain (the sandbox's before 7702, and a plain deployment). */
function plainManifest(): SandboxManifest {
  const m = base();
  for (const d of Object.values(m.chains)) {
    delete d!.accountModel;
    delete d!.erc4337;
  }
  return m;
}

function problems(json: unknown): string {
  try {
    parseManifest(json, 'bad.json');
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the manifest was accepted');
}

describe('manifest: accountModel and erc4337', () => {
  test('behavior: a chain may say 7702 with its ERC-4337 contracts, plain, or nothing (plain); each is kept as given', () => {
    const m = plainManifest();
    m.chains['ethereum-sepolia']!.accountModel = '7702';
    m.chains['ethereum-sepolia']!.erc4337 = ERC4337;
    m.chains['base-sepolia']!.accountModel = 'plain';
    const parsed = parseManifest(m, 'ok.json');
    expect(parsed.chains['ethereum-sepolia']).toMatchObject({ accountModel: '7702', erc4337: ERC4337 });
    expect(parsed.chains['base-sepolia']!.accountModel).toBe('plain');
    expect(parsed.chains['arbitrum-sepolia']!.accountModel).toBeUndefined();
  });

  test("error: accountModel '7702' without erc4337, an unknown account model, a bad or missing erc4337 address and an extra erc4337 field are each named with their path", () => {
    const m = plainManifest() as any;
    m.chains['ethereum-sepolia'].accountModel = '7702';
    m.chains['arbitrum-sepolia'].accountModel = '4337';
    m.chains['base-sepolia'].erc4337 = { entryPoint: ERC4337.entryPoint, delegate: '0x1234', bundler: ERC4337.paymaster };
    const message = problems(m);
    expect(message).toMatch(/chains\.ethereum-sepolia\.erc4337: required when accountModel is '7702'/);
    expect(message).toMatch(/chains\.arbitrum-sepolia\.accountModel: /);
    expect(message).toMatch(/chains\.base-sepolia\.erc4337\.delegate: must be a 0x-prefixed 20-byte hex address/);
    expect(message).toMatch(/chains\.base-sepolia\.erc4337\.paymaster: /);
    expect(message).toMatch(/chains\.base-sepolia\.erc4337: .*bundler/);
  });
  test("error: a '7702' chain whose paymaster is still the zero placeholder (deploy/testnets.json's) is refused, naming the path and the command that deploys one", () => {
    const m = base();
    m.chains['base-sepolia']!.accountModel = '7702';
    expect(m.chains['base-sepolia']!.erc4337?.paymaster).toBe('0x0000000000000000000000000000000000000000');
    expect(problems(m)).toMatch(
      /chains\.base-sepolia\.erc4337\.paymaster: is the zero address \(no paymaster yet\): deploy the service's paymaster with `npm run paymaster:deploy`/,
    );
  });
});

describe('SANDBOX_ACCOUNT_MODEL', () => {
  test('behavior: unset is the default on every chain; 7702 or plain sets every chain; a list sets the chains it names, the others keep the default', () => {
    expect(loadConfig({}).sandboxAccountModels).toEqual({ default: DEFAULT_SANDBOX_ACCOUNT_MODEL, chains: {} });
    expect(loadConfig({ SANDBOX_ACCOUNT_MODEL: '7702' }).sandboxAccountModels).toEqual({ default: '7702', chains: {} });
    expect(loadConfig({ SANDBOX_ACCOUNT_MODEL: 'plain' }).sandboxAccountModels).toEqual({ default: 'plain', chains: {} });
    expect(loadConfig({ SANDBOX_ACCOUNT_MODEL: 'ethereum-sepolia=7702, base-sepolia=plain' }).sandboxAccountModels).toEqual({
      default: DEFAULT_SANDBOX_ACCOUNT_MODEL,
      chains: { 'ethereum-sepolia': '7702', 'base-sepolia': 'plain' },
    });
  });

  test.each([
    ['4337', /"4337" is not chain=model/],
    ['ethereum-sepolia=4337', /"4337" \(for ethereum-sepolia\) is not an account model/],
    ['solana=7702', /"solana" is not a chain name/],
    ['base-sepolia=7702,base-sepolia=plain', /base-sepolia is listed twice/],
  ])('error: %s is refused at start, naming SANDBOX_ACCOUNT_MODEL and the problem', (value, problem) => {
    let error: unknown;
    try {
      loadConfig({ SANDBOX_ACCOUNT_MODEL: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/SANDBOX_ACCOUNT_MODEL: must be 7702, plain, or a list/);
    expect((error as Error).message).toMatch(problem);
  });

  test("behavior: applied to a loaded manifest, it sets each chain's accountModel (the manifest's own is overridden) and the result passes the manifest check", () => {
    const m = plainManifest();
    for (const d of Object.values(m.chains)) d!.erc4337 = ERC4337;
    m.chains['arbitrum-sepolia']!.accountModel = '7702';
    const models = parseSandboxAccountModels('ethereum-sepolia=7702');
    if (typeof models === 'string') throw new Error(models);
    const applied = withSandboxAccountModels(m, models);
    expect(Object.fromEntries(Object.entries(applied.chains).map(([n, d]) => [n, d!.accountModel]))).toEqual({
      'ethereum-sepolia': '7702',
      'arbitrum-sepolia': DEFAULT_SANDBOX_ACCOUNT_MODEL,
      'base-sepolia': DEFAULT_SANDBOX_ACCOUNT_MODEL,
    });
    expect(() => parseManifest(applied, 'applied')).not.toThrow();
  });

  test('error: 7702 on a chain whose loaded manifest has no ERC-4337 contracts is refused, naming the chain', () => {
    const models = parseSandboxAccountModels('7702');
    if (typeof models === 'string') throw new Error(models);
    expect(() => withSandboxAccountModels(plainManifest(), models)).toThrow(
      /SANDBOX_ACCOUNT_MODEL: ethereum-sepolia is set to 7702, but the sandbox manifest has no erc4337/,
    );
  });
});
