import type { components, operations } from './generated/openapi';
import { createGraphQLClient, type GraphQLClient } from './graphql';
import { waitForIntent, watchIntent, type Intent, type WaitForIntentOptions, type WatchIntentOptions, type WatchedIntent } from './intents';
import { createRestClient, originOf, unwrap, unwrapEmpty, type FetchLike, type RestClient } from './rest';
import { createX402Fetch, type X402FetchOptions, type X402Signer } from './x402';

type Schemas = components['schemas'];
export type Wallet = Schemas['Wallet'];
/** A wallet as a paid (x402) read sees it: no email, no metadata, policyId null. */
export type PaidWallet = Schemas['PaidWallet'];
export type CreateWalletRequest = Schemas['CreateWalletRequest'];
export type CreateIntentRequest = Schemas['CreateIntentRequest'];
export type BalanceReport = Schemas['BalanceReport'];
export type YieldReport = Schemas['YieldReport'];
export type FundingReceipt = Schemas['FundingReceipt'];
export type IntentPage = Schemas['IntentPage'];
export type Usage = Schemas['Usage'];
export type YieldsQuery = NonNullable<operations['getYields']['parameters']['query']>;
export type ListIntentsQuery = NonNullable<operations['listIntents']['parameters']['query']>;
export type StandingIntent = Schemas['StandingIntent'];
export type CreateStandingIntentRequest = Schemas['CreateStandingIntentRequest'];
export type StandingIntentPage = Schemas['StandingIntentPage'];
export type StandingDecision = Schemas['StandingDecision'];
export type StandingDecisionPage = Schemas['StandingDecisionPage'];
export type SimulateStandingIntentRequest = Schemas['SimulateStandingIntentRequest'];
export type SimulateStandingIntentResult = Schemas['SimulateStandingIntentResult'];
export type ListStandingIntentsQuery = NonNullable<operations['listStandingIntents']['parameters']['query']>;
export type ListStandingDecisionsQuery = NonNullable<operations['listStandingDecisions']['parameters']['query']>;

export interface ClientOptions {
  /** The service's origin, e.g. `http://127.0.0.1:3000` (a trailing `/v1` is accepted). */
  baseUrl: string;
  /** An API key (`svc_sk_…`): every REST and GraphQL call, and the WebSocket, carry it. */
  apiKey?: string | undefined;
  /**
   * Pays for keyless reads over x402 (GET /wallets/:userId, /balances/:walletId,
   * /yields, /intents/:intentId; 0.001 USDC each): a viem account. Used only when
   * the service answers 402, so it is harmless next to an API key.
   */
  payer?: X402Signer | undefined;
  /** Options of the paying fetch (networks). */
  payment?: Omit<X402FetchOptions, 'fetch'> | undefined;
  /** Your account id, sent as X-Account-Id: a paid GET /wallets/:userId needs it (user ids are unique per account). */
  accountId?: string | undefined;
  /** The fetch to send with (default globalThis.fetch). */
  fetch?: typeof globalThis.fetch | undefined;
  /** Headers sent with every HTTP request. */
  headers?: Record<string, string> | undefined;
  /** The WebSocket implementation for subscriptions (default: globalThis.WebSocket, else the `ws` package). */
  webSocketImpl?: unknown;
}

/** Per-call options of the POSTs that honour Idempotency-Key. */
export interface IdempotentCallOptions {
  /** The Idempotency-Key (default: a random UUID). Send the same one to retry a call safely for 24 h. */
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

/** The service's client: the raw typed REST and GraphQL clients, and one helper per common call. */
export interface ServiceClient {
  /** The service's origin. */
  readonly baseUrl: string;
  /** The typed REST client (openapi-fetch over the OpenAPI document): every /v1 operation, `{ data, error, response }`. */
  readonly rest: RestClient;
  /** GraphQL over HTTP (`request`, `execute`) and WebSocket (`ws()`), with the SDK's typed documents or your own. */
  readonly graphql: GraphQLClient;
  readonly wallets: {
    /** POST /v1/wallets: creates a user's wallet (201). Idempotent with its Idempotency-Key. */
    create(body: CreateWalletRequest, o?: IdempotentCallOptions): Promise<Wallet>;
    /** GET /v1/wallets/:userId: the wallet of one of your users (a PaidWallet when the client pays per read instead of using a key). */
    get(userId: string, o?: CallOptions): Promise<Wallet | PaidWallet>;
    /** POST /v1/demo/fund: sends the wallet 1 test USDC on arbitrum-sepolia (202, submitted). */
    fundDemo(walletId: string, o?: CallOptions): Promise<FundingReceipt>;
  };
  readonly intents: {
    /** POST /v1/intents: a lend, withdraw or bridge intent (201, pending). Idempotent with its Idempotency-Key. */
    create(body: CreateIntentRequest, o?: IdempotentCallOptions): Promise<Intent>;
    /** GET /v1/intents/:intentId. */
    get(intentId: string, o?: CallOptions): Promise<Intent>;
    /** GET /v1/intents?walletId=…: a wallet's intents, newest first, by cursor. */
    list(query: ListIntentsQuery, o?: CallOptions): Promise<IntentPage>;
    /** Polls until the intent is completed, failed or cancelled (see waitForIntent). */
    wait(intentId: string, o?: WaitForIntentOptions): Promise<Intent>;
    /** Follows the intent over the `intentUpdated` subscription until it is final (see watchIntent). */
    watch(intentId: string, o?: WatchIntentOptions): AsyncGenerator<WatchedIntent, void, undefined>;
  };
  readonly yields: {
    /** GET /v1/yields: APY per chain, protocol and asset, and the best market. */
    get(query?: YieldsQuery, o?: CallOptions): Promise<YieldReport>;
  };
  readonly balances: {
    /** GET /v1/balances/:walletId: tokens and lending positions on every chain. */
    get(walletId: string, o?: CallOptions): Promise<BalanceReport>;
  };
  readonly usage: {
    /** GET /v1/usage: plan, credits, rate window and wallets (free). */
    get(o?: CallOptions): Promise<Usage>;
  };
  /**
   * Standing intents: keep a wallet's asset lent in the market with the best
   * net yield. `create` carries an Idempotency-Key (a random UUID, or yours),
   * as wallets and intents do.
   */
  readonly standingIntents: {
    /** POST /v1/standing-intents: active at once (201). A second one for the wallet and asset is 409 STANDING_INTENT_ALREADY_EXISTS (`details.standingIntentId`). */
    create(body: CreateStandingIntentRequest, o?: IdempotentCallOptions): Promise<StandingIntent>;
    /** GET /v1/standing-intents: the account's, newest first, by cursor (`after: pageInfo.endCursor`). */
    list(query?: ListStandingIntentsQuery, o?: CallOptions): Promise<StandingIntentPage>;
    /** GET /v1/standing-intents/:id. */
    get(standingIntentId: string, o?: CallOptions): Promise<StandingIntent>;
    /** POST /v1/standing-intents/:id/pause: nothing is decided until it is resumed. */
    pause(standingIntentId: string, o?: CallOptions): Promise<StandingIntent>;
    /** POST /v1/standing-intents/:id/resume: decided again from the next rate sample. */
    resume(standingIntentId: string, o?: CallOptions): Promise<StandingIntent>;
    /** DELETE /v1/standing-intents/:id (204): it and its decisions are gone; the funds stay where they are. */
    delete(standingIntentId: string, o?: CallOptions): Promise<void>;
    /** GET /v1/standing-intents/:id/decisions: moved or skipped, with their numbers, newest first, by cursor. */
    decisions(standingIntentId: string, query?: ListStandingDecisionsQuery, o?: CallOptions): Promise<StandingDecisionPage>;
    /** POST /v1/standing-intents/simulate: the rule replayed over the recorded APY history (creates nothing). */
    simulate(body: SimulateStandingIntentRequest, o?: CallOptions): Promise<SimulateStandingIntentResult>;
  };
  /** Closes the subscription WebSocket, if one is open. */
  close(): Promise<void>;
}

/**
 * A client of the wallet, yield and lending-intent service.
 *
 * ```ts
 * import { createClient } from '@wallet-intent-service/sdk';
 *
 * const client = createClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.KEY });
 * const wallet = await client.wallets.create({ userId: 'alice' });
 * const intent = await client.intents.create({ walletId: wallet.id, action: 'lend', amount: '0.5' });
 * for await (const update of client.intents.watch(intent.id)) console.log(update.status);
 * ```
 *
 * Every helper resolves with the service's JSON (typed from the OpenAPI
 * document) or rejects with a ServiceApiError; `responseOf(value)` gives the
 * HTTP answer behind a value.
 */
export function createClient(o: ClientOptions): ServiceClient {
  const baseUrl = originOf(o.baseUrl);
  const plainFetch = o.fetch ?? ((input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init));
  const sending = o.payer !== undefined ? createX402Fetch(o.payer, { ...o.payment, fetch: plainFetch }) : plainFetch;
  const fetchRequest: FetchLike = (request) => sending(request);
  const headers: Record<string, string> = { ...o.headers };
  if (o.accountId !== undefined) headers['X-Account-Id'] = o.accountId;
  const rest = createRestClient({ baseUrl, apiKey: o.apiKey, fetch: fetchRequest, headers });
  const graphql = createGraphQLClient({
    baseUrl,
    apiKey: o.apiKey,
    fetch: (request) => plainFetch(request),
    headers: o.headers,
    webSocketImpl: o.webSocketImpl,
  });
  const signalOf = (c?: CallOptions) => (c?.signal ? { signal: c.signal } : {});
  const keyOf = (c?: IdempotentCallOptions) => (c?.idempotencyKey !== undefined ? { header: { 'Idempotency-Key': c.idempotencyKey } } : {});

  return {
    baseUrl,
    rest,
    graphql,
    wallets: {
      create: (body, c) => unwrap(rest.POST('/wallets', { body, params: keyOf(c), ...signalOf(c) })),
      get: (userId, c) => unwrap(rest.GET('/wallets/{userId}', { params: { path: { userId } }, ...signalOf(c) })),
      fundDemo: (walletId, c) => unwrap(rest.POST('/demo/fund', { body: { walletId }, ...signalOf(c) })),
    },
    intents: {
      create: (body, c) => unwrap(rest.POST('/intents', { body, params: keyOf(c), ...signalOf(c) })),
      get: (intentId, c) => unwrap(rest.GET('/intents/{intentId}', { params: { path: { intentId } }, ...signalOf(c) })),
      list: (query, c) => unwrap(rest.GET('/intents', { params: { query }, ...signalOf(c) })),
      wait: (intentId, w) => waitForIntent(rest, intentId, w),
      watch: (intentId, w) => watchIntent(graphql.ws(), intentId, w),
    },
    yields: { get: (query, c) => unwrap(rest.GET('/yields', { params: { query: query ?? {} }, ...signalOf(c) })) },
    balances: { get: (walletId, c) => unwrap(rest.GET('/balances/{walletId}', { params: { path: { walletId } }, ...signalOf(c) })) },
    usage: { get: (c) => unwrap(rest.GET('/usage', signalOf(c))) },
    standingIntents: {
      create: (body, c) => unwrap(rest.POST('/standing-intents', { body, params: keyOf(c), ...signalOf(c) })),
      list: (query, c) => unwrap(rest.GET('/standing-intents', { params: { query: query ?? {} }, ...signalOf(c) })),
      get: (standingIntentId, c) => unwrap(rest.GET('/standing-intents/{standingIntentId}', { params: { path: { standingIntentId } }, ...signalOf(c) })),
      pause: (standingIntentId, c) =>
        unwrap(rest.POST('/standing-intents/{standingIntentId}/pause', { params: { path: { standingIntentId } }, ...signalOf(c) })),
      resume: (standingIntentId, c) =>
        unwrap(rest.POST('/standing-intents/{standingIntentId}/resume', { params: { path: { standingIntentId } }, ...signalOf(c) })),
      delete: (standingIntentId, c) =>
        unwrapEmpty(rest.DELETE('/standing-intents/{standingIntentId}', { params: { path: { standingIntentId } }, ...signalOf(c) })),
      decisions: (standingIntentId, query, c) =>
        unwrap(rest.GET('/standing-intents/{standingIntentId}/decisions', { params: { path: { standingIntentId }, query: query ?? {} }, ...signalOf(c) })),
      // openapi-fetch widens the document's [at, apy] tuples to arrays; the service answers the tuples the schema names
      simulate: (body, c) => unwrap(rest.POST('/standing-intents/simulate', { body, ...signalOf(c) })) as Promise<SimulateStandingIntentResult>,
    },
    close: () => graphql.close(),
  };
}
