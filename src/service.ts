import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createKeyCache } from './app/accounts/keyCache';
import { createKeyRevocations } from './app/accounts/keyRevocations';
import { ConfigError, type Config } from './config';
import type { Logger } from './logger';
import type { AppDeps } from './app/deps';
import { createStore } from './store/createStore';
import { withStoreFaults } from './store/storeFaults';
import { createKeyProvider, serviceAccountsAtStart, serviceSignerAtStart } from './chain/keys/createKeyProvider';
import type { KeyProvider } from './ports/keyProvider';
import { createMetrics } from './metrics';
import { createFrontDoors } from './frontDoors';
import type { RouteInfo } from './http/router';
import { bootstrapDevAccount } from './app/bootstrap';
import { createReadCaches, invalidateWalletHoldings, planningCacheOf } from './app/caches';
import { createSystemClock, withTimeOf, type Clock } from './domain/clock';
import { createClientAddress } from './http/clientAddress';
import { recordGasSpent } from './app/budgets/gasBudget';
import { createEngine, type Engine } from './engine/engine';
import { createX402Payments } from './chain/x402/x402Payments';
import { createIntentBus } from './engine/eventBus';
import { createSharedBus, type SharedBus } from './engine/sharedBus';
import { createChangeFeedBus } from './engine/changeFeedBus';
import type { NonceRepo, Store } from './ports/store';
import { settleFinalIntent } from './app/budgets/finalIntent';
import { checkPlanPolicy } from './app/policies/planCheck';
import { startChains, type RunningChains } from './chain/startChains';
import type { ProtocolRegistry } from './chain/protocols/registry';
import { chainFastReads } from './rest/routes/chainReads';
import { sandboxAdminRoutes } from './rest/routes/sandboxAdmin';
import { sandboxAdmin } from './app/sandbox/sandboxAdmin';
import type { RestState } from './rest/context';
import { createKeyUseRecorder } from './app/accounts/keyUse';
import { createDashboard } from './dashboard/createDashboard';
import { createWebhookDispatcher } from './app/webhooks/dispatcher';
import { createSecretBox } from './app/webhooks/secrets';
import { createRateSampler, type RateSampler } from './app/yields/rateSampler';
import { positionLedgerHook } from './app/balances/positionLedger';
import { createLedgerWrites } from './app/balances/ledgerWrites';
import { createDecisionBus } from './app/standing/decisionBus';
import { createBacktestSlots } from './app/standing/backtestSlots';
import { createStandingDecider, type StandingDecider } from './app/standing/decider';
import { readSampleCosts } from './app/yields/sampleCosts';

/**
 * Whether other instances may share this store: a MongoDB database can be
 * shared, the memory store belongs to this process. What only several
 * instances need (intent leases, nonces from the store, a cross-instance bus)
 * is turned on by this one test.
 */
const shareable = (store: Pick<Store, 'kind'>): boolean => store.kind === 'mongo';

/**
 * Several instances on one database: what one instance persists reaches
 * subscriptions on the others. On a replica set the bus follows the intents'
 * change stream (resumed from its last token after a reconnect); on a server
 * without change streams, the polled `intentEvents` log.
 */
async function crossInstanceBus(store: Store, origin: string, clock: Clock, logger: Logger, publishedHere: (intentId: string) => boolean): Promise<SharedBus> {
  if (store.intentChanges) {
    try {
      const bus = await createChangeFeedBus(createIntentBus(), store.intentChanges, {
        publishedHere,
        onError: (err, what) => logger.warn({ err, what }, 'intent change stream'),
      });
      logger.info('intent updates across instances: following the intents change stream');
      return bus;
    } catch (err) {
      logger.warn({ err }, 'the intents change stream could not be opened; polling the intentEvents log instead');
    }
  }
  logger.info('intent updates across instances: polling the intentEvents log (the database has no change streams)');
  return createSharedBus(createIntentBus(), store.intentEvents, { origin, clock, onError: (err, what) => logger.warn({ err, what }, 'intent event log') });
}

export interface RunningService {
  server: Server;
  url: string;
  deps: AppDeps;
  /** The development key when one was generated (development only), to print; a DEV_API_KEY given is never handed out. */
  devApiKey?: string;
  /** The development account, when there is one (generated, or DEV_API_KEY's). */
  devAccountId?: string;
  environment: string;
  /** The dashboard's URL, when it is on. */
  dashboardUrl?: string;
  chains: RunningChains;
  /** Every key the service signs with (wallets, gas tank, faucet, x402 settler). */
  keyProvider: KeyProvider;
  /** The REST routes served (read from the routers; GraphQL is `/graphql`). */
  routes: RouteInfo[];
  /** Samples every market's APY into the yield history (started with the service, stopped by stop()). */
  rateSampler: RateSampler;
  /** The live decider of standing intents (told of every sample and of completed intents). */
  standing: StandingDecider;
  stop(): Promise<void>;
}

/**
 * Devnets attached through SANDBOX_MANIFEST outlive this process, while a
 * memory store's master key would be drawn anew at each start: the wallets
 * the service made on those chains would lose their keys (and funds) at a
 * restart. Refused before anything starts, unless the key is configured.
 */
export function assertKeysOutliveRestart(config: Pick<Config, 'mongodbUri' | 'sandboxManifestPath' | 'keyVaultMasterKey'>): void {
  if (config.mongodbUri === undefined && config.sandboxManifestPath !== undefined && config.keyVaultMasterKey === undefined) {
    throw new ConfigError(
      'Invalid environment:\n  KEY_VAULT_MASTER_KEY: is required with SANDBOX_MANIFEST and the memory store (no MONGODB_URI): the devnets outlive this process, and wallet keys encrypted under a random master key would be lost at a restart (generate one: openssl rand -hex 32)',
    );
  }
}

/** What the composition takes besides the configuration. */
export interface ServiceOptions {
  /** The lending protocols' modules (default: aave-v3 and compound-v3, DEFAULT_PROTOCOLS). */
  protocols?: ProtocolRegistry;
}

/** Composition root: config → store → chains → key vault → use-case deps → REST + GraphQL on one HTTP server. */
export async function startService(config: Config, logger: Logger, options: ServiceOptions = {}): Promise<RunningService> {
  assertKeysOutliveRestart(config);
  // The one clock of this process: the store, the chains, the engine, webhooks and the yield sampler all take it.
  const systemClock = createSystemClock();
  // One registry per instance; the layers report into it through hooks (they never import it).
  // The chains' clock offsets are read at scrape time; the chains start after the registry.
  const started: { chains?: RunningChains } = {};
  const metrics = createMetrics({ chainClocks: () => started.chains?.clocks() ?? Promise.resolve([]) });
  // Without a configured key only the memory store can run (config refuses MONGODB_URI without one): keys die with the process anyway.
  const masterKey = config.keyVaultMasterKey ?? randomBytes(32);
  // Every key the service signs with is the provider's. It opens first (a wrong PIN, a missing token or library stops
  // the start, naming the variable); wallet records reach the store once it is there.
  const walletKeysOf: { store?: Store } = {};
  const keyProvider: KeyProvider = createKeyProvider(config, {
    masterKey,
    walletKeys: () => walletKeysOf.store!.walletKeys,
    observer: { onSign: metrics.keySign },
  });
  const sandbox = config.chainMode === 'sandbox';
  let serviceKeys: Awaited<ReturnType<typeof serviceAccountsAtStart>>;
  let settler: Awaited<ReturnType<typeof serviceSignerAtStart>> | undefined;
  try {
    // On the sandbox chains a token gets the service keys it lacks; the sandbox funds them.
    serviceKeys = await serviceAccountsAtStart(keyProvider, sandbox);
    settler = config.payments ? await serviceSignerAtStart(keyProvider, 'settler', sandbox) : undefined;
  } catch (e) {
    await keyProvider.close();
    throw e;
  }
  // The chains start beside the store: on a shared database, every signer takes its nonces from the store once it is there.
  let sharedNonces: NonceRepo | undefined;
  const [storeResult, chainsResult] = await Promise.allSettled([
    createStore(config, systemClock).then((s) => {
      if (shareable(s)) sharedNonces = s.nonces;
      return s;
    }),
    startChains(
      { ...config, serviceAccounts: serviceKeys, fundAddresses: settler ? [settler.address] : [], protocols: options.protocols },
      { onRpc: metrics.chainRpc, nonces: () => sharedNonces, onNonceRetry: (chain) => metrics.nonceRetry(chain), clock: systemClock },
    ),
  ]);
  if (storeResult.status === 'rejected' || chainsResult.status === 'rejected') {
    // Whatever did start is stopped again: no devnet or connection outlives a failed start.
    if (storeResult.status === 'fulfilled') await storeResult.value.close();
    if (chainsResult.status === 'fulfilled') await chainsResult.value.stop();
    await keyProvider.close();
    throw storeResult.status === 'rejected' ? storeResult.reason : (chainsResult as PromiseRejectedResult).reason;
  }
  const chains = chainsResult.value;
  started.chains = chains;
  // docs/decisions.md, "staging": a database serves one environment; another environment's database is refused before anything runs.
  try {
    await storeResult.value.claimEnvironment?.(config.environment);
  } catch (e) {
    await Promise.all([storeResult.value.close(), chains.stop(), keyProvider.close()]);
    throw e;
  }
  const store = chains.controls ? withStoreFaults(storeResult.value, chains.controls.faults) : storeResult.value;
  logger.info({ chains: chains.port.chains, mode: config.chainMode, startupMs: chains.startupMs }, 'chains ready');
  if (store.capabilities) logger.info({ capabilities: store.capabilities }, 'store capabilities');
  // Rate windows, credits, budgets and intent leases are shared by every instance on one database: the same clock, telling
  // the database server's time when the store follows it (its offset measured on this clock).
  const clock = store.clock ? withTimeOf(systemClock, store.clock.now) : systemClock;
  walletKeysOf.store = store;
  const caches = createReadCaches();
  // This instance among those sharing the database: it owns intent leases under this id.
  const instanceId = `instance_${randomBytes(6).toString('hex')}`;
  // The bus is made before the engine; the engine's leases say which snapshots it publishes itself.
  let engineRef: Engine | undefined;
  const bus = shareable(store) ? await crossInstanceBus(store, instanceId, clock, logger, (id) => engineRef?.holds(id) ?? false) : undefined;
  // Webhooks: every intent transition becomes persisted deliveries, sent (signed, retried) by a worker.
  const webhooks = createWebhookDispatcher({
    store,
    clock,
    secrets: createSecretBox(masterKey, config.keyVaultPreviousKeys),
    // Why an endpoint was refused or an attempt failed is told here only; API callers see "not delivered" and a status class.
    egress: { allowLoopback: config.webhooks.allowLoopback, explain: (detail, msg) => logger.warn(detail, msg) },
    retry: { baseMs: config.webhooks.retryBaseMs },
    logger,
  });
  const engine = (engineRef = createEngine({
    bus,
    store,
    chains: chains.port,
    keyVault: keyProvider,
    clock,
    logger,
    txStuckAfterMs: config.txStuckAfterMs,
    // Instances on one database lease the intents they run; the memory store has one engine, which needs none.
    leases: shareable(store) ? { repo: store.intentLeases, owner: instanceId, leaseMs: config.intentLeaseMs, now: () => clock.now().getTime() } : undefined,
    retry: { inFlightMaxMs: config.txRetryMaxMs },
    // The service's own transactions make cached balances stale.
    onWalletActivity: (walletId) => invalidateWalletHoldings(caches, walletId),
    // Planning takes the balances a client just read, unless an intent of the wallet changed since (checked in the store).
    planningCache: planningCacheOf(caches),
    onGasSpent: (intent, wei) => {
      recordGasSpent(store.usage, intent.accountId, wei, clock.now()).catch((err: unknown) =>
        logger.warn({ err, intentId: intent.id }, 'gas spend not recorded'),
      );
    },
    // USD caps priced where the plan executes, checked (and the daily reservation settled) before its first signature.
    checkPlan: (intent, steps) => checkPlanPolicy({ store, chains: chains.port, clock }, intent, steps),
    // What admission reserved comes back: the gas estimate always, the daily cap's share when nothing was signed (it moved nothing).
    onFinal: (intent) => settleFinalIntent({ store }, intent),
    onTransition: (intent) => {
      metrics.intentTransition(intent);
      webhooks.onTransition(intent);
    },
  }));
  // Every committed snapshot of an intent this instance runs: its completed deposits and withdraws go into the position ledger (balances' principal and earned).
  const ledgerWrites = createLedgerWrites();
  engine.bus.listen(
    'all',
    positionLedgerHook({ store, chains: chains.port, logger, runsHere: (id) => !shareable(store) || engine.holds(id), writes: ledgerWrites }),
  );
  // Paid reads need a payment network among the configured chains; which ones qualify is the adapter's to say.
  const payments = config.payments
    ? await createX402Payments({
        clients: chains.client,
        settler: settler!,
        payTo: config.payments.payTo,
        onUnavailable: (chain, err) => logger.warn({ chain, err }, 'x402: payment network not answering at start; not offered'),
      }).catch((err: unknown) => {
        logger.warn({ err }, 'x402: paid reads unavailable');
        return undefined;
      })
    : undefined;
  const keyUse = createKeyUseRecorder(store.apiKeys, { onError: (err) => logger.warn({ err }, 'key use not recorded; retried with the next batch') });
  const deps: AppDeps = {
    environment: config.environment,
    // Without a configured secret, sessions end with the process (config requires one where that matters).
    sessionSecret: config.sessionSecret ?? randomBytes(32),
    keyUse,
    payments,
    store,
    logger,
    clock,
    ledgerWrites,
    keyVault: keyProvider,
    keyCache: createKeyCache(),
    revocations: createKeyRevocations({ store }),
    chains: chains.port,
    caches,
    limits: { gasBudgetPerAccountWei: config.gasBudgetPerAccountWei },
    engine,
    onCreditsCharged: metrics.creditsChargedFor,
    webhooks,
    decisionBus: createDecisionBus(),
    backtests: createBacktestSlots(),
  };
  // Standing intents are decided on every rate sample, and again when an intent of the wallet completes (funds it left idle, or delivered).
  const standing = createStandingDecider({ ...deps, engine });
  engine.bus.listen('all', (intent) => {
    if (intent.status !== 'completed' || (shareable(store) && !engine.holds(intent.id))) return;
    standing
      .onFundsArrived(intent.walletId)
      .catch((err: unknown) => logger.warn({ err, walletId: intent.walletId }, 'standing intents not decided on arrived funds'));
  });
  // The yield history: every market's on-chain APY, sampled on an interval (one sample per market and minute across instances); started once the server listens.
  const rateSampler = createRateSampler({
    readRates: chains.port.rates.bind(chains.port),
    readCosts: () => readSampleCosts(chains.port),
    rateHistory: store.rateHistory,
    clock,
    intervalMs: config.yieldSampleIntervalMs,
    onError: (err) => logger.warn({ err }, 'yield sample not taken; the next one is tried on time'),
    onSample: (sample) => standing.onSample(sample),
  });
  const dev = 'off' in config.devAccount ? undefined : await bootstrapDevAccount(deps, { key: config.devAccount.key, plan: config.devAccount.plan });
  if ('off' in config.devAccount) logger.info(config.devAccount.off);
  // A generated key (development only) is shown: the ready line, GraphiQL's Headers tab. DEV_API_KEY's is the operator's, never shown.
  const shownDevKey = dev && !('off' in config.devAccount) && config.devAccount.generated ? dev.key : undefined;
  if (config.dashboard && !config.dashboard.signIn) {
    logger.info('dashboard sign-in: none configured (OIDC_ISSUER); the development sign-in runs in a development sandbox only, or with DEV_SIGNIN=true');
  }
  const { resumed } = await engine.start();
  if (resumed > 0) logger.info({ resumed }, 'resumed unfinished intents');
  webhooks.start();
  let listeningUrl = '';
  const publicUrl = () => config.publicUrl ?? listeningUrl;
  const dashboard = config.dashboard ? createDashboard<RestState>({ deps, logger, signIn: config.dashboard.signIn, publicUrl }) : undefined;
  const { server, closeWebSocket, routes, drain } = createFrontDoors({
    deps,
    logger,
    metrics,
    production: config.production,
    // GraphiQL's Headers tab holds the generated development key, so a newcomer's first Run answers data (pages to allowed hosts only).
    graphiqlApiKey: shownDevKey,
    allowedHosts: config.allowedHosts,
    corsOrigins: config.corsOrigins,
    clientAddress: createClientAddress(config.trustedProxies),
    bodyLimitBytes: config.bodyLimitBytes,
    graphqlFastPath: config.graphqlFastPath,
    adminToken: config.adminToken,
    fastReads: chainFastReads(deps),
    publicRouters: dashboard ? [dashboard.router] : [],
    oidc: dashboard?.oidc,
    publicUrl,
    adminRouters: chains.controls ? [sandboxAdminRoutes(sandboxAdmin(deps, chains.controls, chains.manifest, rateSampler))] : [],
    health: {
      environment: config.environment,
      async ready() {
        // A key provider that cannot sign (a token out) is not ready, as a store that does not answer.
        const [, , clocks, attestations] = await Promise.all([
          store.ping(),
          chains.port.rates(),
          chains.clocks(),
          chains.attestationServiceAnswers(),
          keyProvider.check(),
        ]);
        // Each chain's clock against the wall clock: a chain ahead refuses the x402 clients' payments and accrues interest early.
        const chainClocks = Object.fromEntries(clocks.map((c) => [c.chain, { offsetSeconds: c.offsetSeconds, blockTimestamp: c.blockTimestamp }]));
        // The attestation service is reported, not required: while it is out, bridges wait for their mints and nothing else does.
        return {
          store: 'ok',
          chains: 'ok',
          keyProvider: { status: 'ok', provider: keyProvider.kind },
          attestationService: attestations ? 'ok' : 'unreachable',
          chainClocks,
          environment: config.environment,
          ...(store.capabilities ? { storeCapabilities: store.capabilities } : {}),
        };
      },
    },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (e) {
    await engine.stop();
    await webhooks.stop();
    bus?.stop();
    await Promise.all([store.close(), chains.stop(), keyProvider.close()]);
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  listeningUrl = url;
  // The yield history: sampled on an interval from here on.
  rateSampler.start();

  let stopping: Promise<void> | undefined;
  return {
    server,
    url,
    deps,
    devApiKey: shownDevKey,
    devAccountId: dev?.accountId,
    environment: config.environment,
    dashboardUrl: dashboard ? `${publicUrl()}/dashboard/` : undefined,
    chains,
    keyProvider,
    routes,
    rateSampler,
    standing,
    stop() {
      stopping ??= (async () => {
        // New requests get 503 from here; those already running finish before the server closes.
        drain();
        deps.revocations.close();
        await closeWebSocket();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await engine.stop();
        await webhooks.stop();
        await rateSampler.stop();
        bus?.stop();
        await keyUse.stop();
        await Promise.all([store.close(), chains.stop()]);
        await keyProvider.close();
      })();
      return stopping;
    },
  };
}
