import type { Address } from 'viem';
import type { ExecutionPlan, Intent } from '../../../src/domain/intent';
import type { Wallet } from '../../../src/domain/types';

/** An EVM wallet record on the three test networks, its userId its id. */
export function walletRecord(id: string, address: Address, accountId: string): Wallet {
  return {
    id,
    accountId,
    userId: id,
    address,
    evmAddress: address,
    chainType: 'ethereum',
    chains: ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'],
    email: null,
    metadata: {},
    createdAt: new Date().toISOString(),
  };
}

/** A freshly created lend intent (status pending, version 0). */
export function pendingIntent(overrides: Partial<Intent> = {}): Intent {
  return {
    id: 'intent_0001',
    accountId: 'acct_0001',
    walletId: 'svc_wallet_0001',
    status: 'pending',
    action: 'lend',
    amount: '100',
    requestedAmount: '100',
    asset: 'USDC',
    executionPlan: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    version: 0,
    ...overrides,
  };
}

/** A single-bridge lend plan: bridge 100 USDC arbitrum-sepolia → base-sepolia, deposit 99.9. */
export function bridgeThenDepositPlan(): ExecutionPlan {
  return {
    strategy: 'single-bridge',
    reasoning: 'test plan',
    steps: [
      { index: 0, type: 'bridge', status: 'pending', chain: 'arbitrum-sepolia', from: 'arbitrum-sepolia', to: 'base-sepolia', amount: '100', fee: '0.1' },
      { index: 1, type: 'deposit', status: 'pending', chain: 'base-sepolia', protocol: 'aave', asset: 'USDC', amount: '99.9' },
    ],
  };
}
