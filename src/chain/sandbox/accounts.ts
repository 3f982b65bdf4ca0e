import type { Address, Hex } from 'viem';

/**
 * Well-known SANDBOX-ONLY keys: Hardhat's default accounts #0..#3, derived from the public
 * mnemonic below (m/44'/60'/0'/0/i). Everyone knows them; never use them on a real network.
 */
export const SANDBOX_MNEMONIC = 'test test test test test test test test test test test junk';

/** Roles of the sandbox accounts. */
export type SandboxRole = 'deployer' | 'faucet' | 'gasTank' | 'attester' | 'settler' | 'treasury';

/**
 * Private keys per role (sandbox only): deployer #0, faucet #1, gas tank #2,
 * attester #3, settler #4 (sends x402 settlements: its own nonces, apart from
 * the gas tank's), treasury #5 (receives x402 payments).
 */
export const SANDBOX_KEYS: Readonly<Record<SandboxRole, Hex>> = {
  deployer: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  faucet: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  gasTank: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  attester: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  settler: '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  treasury: '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
};

/** Addresses of SANDBOX_KEYS (a unit test checks each against its key). */
export const SANDBOX_ADDRESSES: Readonly<Record<SandboxRole, Address>> = {
  deployer: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  faucet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  gasTank: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  attester: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
  settler: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65',
  treasury: '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc',
};

/** Native balance each sandbox account starts with on every devnet: 1,000,000 ETH. */
export const SANDBOX_NATIVE_BALANCE_WEI = 10n ** 24n;
