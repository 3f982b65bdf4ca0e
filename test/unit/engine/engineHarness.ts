import type { Address } from 'viem';
import type { ChainName, LendingProtocol, TokenAsset } from '../../../src/domain/chains';
import type { BridgeSpeed, Intent, IntentAction, RebalanceSource } from '../../../src/domain/intent';
import { toUnits } from '../../../src/domain/money';
import type { Wallet } from '../../../src/domain/types';
import type { MarketRate } from '../../../src/ports/chain';
import { createEngine, type Engine, type EngineOptions } from '../../../src/engine/engine';
import { silentLogger } from '../../../src/engine/engineLogger';
import { isFinal } from '../../../src/domain/intentStateMachine';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import type { Store } from '../../../src/ports/store';
import { AutoClock } from './autoClock';
import { FakeChain, testAddress, testKeyVault } from './fakeChain';
import { doubleToken } from '../../helpers/chainDoubles';
import { walletRecord } from './intentFixture';

/** Test-network USDC markets: base-sepolia/aave-v3 is the best. */
export const MARKETS: MarketRate[] = [
  { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: doubleToken('USDC'), apy: 4.2 },
  { chain: 'base-sepolia', protocol: 'compound-v3', asset: 'USDC', token: doubleToken('USDC'), apy: 3.9 },
  { chain: 'arbitrum-sepolia', protocol: 'aave-v3', asset: 'USDC', token: doubleToken('USDC'), apy: 3.1 },
  { chain: 'ethereum-sepolia', protocol: 'aave-v3', asset: 'USDC', token: doubleToken('USDC'), apy: 2.5 },
];

export const usdc = (amount: string): bigint => toUnits(amount, 'USDC');

/** What a test asks for, as POST /intents would carry it. */
export interface IntentRequest {
  action?: IntentAction;
  amount: string;
  asset?: TokenAsset;
  chain?: ChainName;
  fromChain?: ChainName;
  toChain?: ChainName;
  toProtocol?: LendingProtocol;
  sources?: RebalanceSource[];
  speed?: BridgeSpeed;
}

/** An engine over a memory store and a fake chain, with helpers to make wallets and intents and await their end. */
export interface Harness {
  clock: AutoClock;
  store: Store;
  chain: FakeChain;
  engine: Engine;
  wallet(): Promise<{ id: string; address: Address }>;
  /** Inserts a pending intent as submitIntent would and hands it to the engine. */
  submit(walletId: string, request: IntentRequest): Promise<Intent>;
  /** Resolves with the intent once it is final. */
  settled(intentId: string): Promise<Intent>;
  /** A second engine over the same store and chain (a restart). */
  restart(overrides?: Partial<EngineOptions>): Engine;
}

let counter = 0;

/** Builds a harness (over a memory store unless one is given); the fake chain charges `feeBps` on every route (default 5). */
export function createHarness(o: { feeBps?: number; engine?: Partial<EngineOptions>; store?: Store } = {}): Harness {
  const clock = new AutoClock();
  const store = o.store ?? createMemoryStore(clock);
  const chain = new FakeChain({ rates: MARKETS, feeBps: o.feeBps ?? 5 });
  // a receipt waited for lets virtual time pass, so stuck-transaction periods elapse at once
  chain.waitWith = (ms) => new Promise((resolve) => clock.setTimeout(resolve, ms));
  const options = (overrides: Partial<EngineOptions> = {}): EngineOptions => ({
    store,
    chains: chain,
    keyVault: testKeyVault(),
    clock,
    logger: silentLogger,
    retry: { attempts: 5, baseMs: 100, maxMs: 1_000 },
    walletIdleMs: 0,
    ...o.engine,
    ...overrides,
  });
  const engine = createEngine(options());
  let current = engine;

  return {
    clock,
    store,
    chain,
    engine,
    async wallet() {
      const id = `svc_wallet_test${String(++counter).padStart(4, '0')}`;
      const address = testAddress(id);
      const w: Wallet = { ...walletRecord(id, address, 'acct_test'), userId: `user_${counter}`, createdAt: clock.now().toISOString() };
      await store.wallets.insert(w);
      return { id, address };
    },
    async submit(walletId, request) {
      const now = clock.now().toISOString();
      const intent: Intent = {
        id: `intent_test${String(++counter).padStart(4, '0')}`,
        accountId: 'acct_test',
        walletId,
        status: 'pending',
        action: request.action ?? 'lend',
        amount: request.amount,
        requestedAmount: request.amount,
        asset: request.asset ?? 'USDC',
        ...(request.chain && { chain: request.chain }),
        ...(request.fromChain && { fromChain: request.fromChain }),
        ...(request.toChain && { toChain: request.toChain }),
        ...(request.toProtocol && { toProtocol: request.toProtocol }),
        ...(request.sources && { sources: request.sources }),
        ...(request.speed && { speed: request.speed }),
        executionPlan: null,
        createdAt: now,
        updatedAt: now,
        version: 0,
      };
      await store.intents.insert(intent);
      await current.submit(intent);
      return intent;
    },
    settled(intentId) {
      return new Promise((resolve) => {
        let off = (): void => undefined;
        const done = (i: Intent | null): void => {
          if (i === null || !isFinal(i.status)) return;
          off();
          resolve(i);
        };
        off = current.bus.listen({ intentId }, done);
        void store.intents.get(intentId).then(done);
      });
    },
    restart(overrides) {
      current = createEngine(options(overrides));
      return current;
    },
  };
}
