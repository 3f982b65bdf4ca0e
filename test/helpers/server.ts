import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startService, type RunningService, type ServiceOptions } from '../../src/service';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/app/accounts/apiKeyFormat';
import { newId } from '../../src/domain/ids';
import type { Account } from '../../src/domain/types';

/** The admin token every test server is started with (≥ 16 characters, as config requires). */
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
/** The master key of test servers attached to devnets with the memory store. */
export const TEST_MASTER_KEY = '7e57'.repeat(16);

/** A parsed JSON body; tests read fields freely and assert on them. */
export type Json = any;

/** An HTTP answer: status, headers and the body parsed as JSON when it is JSON (else the raw text). */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

export interface RestOptions {
  /** API key sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** An object is sent as JSON; a string or Buffer is sent as is (for malformed or oversized bodies). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A started service plus request helpers bound to its URL. */
export interface TestServer {
  url: string;
  service: RunningService;
  rest(method: string, path: string, options?: RestOptions): Promise<HttpAnswer>;
  gql(query: string, variables?: Record<string, unknown>, key?: string, headers?: Record<string, string>): Promise<HttpAnswer>;
  admin: AdminClient;
  stop(): Promise<void>;
}

export interface TestAccount {
  accountId: string;
  key: string;
  keyId: string;
}

export interface AdminClient {
  /** A fresh account (isolated rate and credit counters) with its first key. */
  createAccount(params?: { plan?: 'free' | 'pro' | 'enterprise'; requestsPerMinute?: number; scopes?: ('read' | 'write')[] }): Promise<TestAccount>;
  issueKey(accountId: string, params?: { scopes?: ('read' | 'write')[]; name?: string }): Promise<{ id: string; key: string }>;
  revokeKey(keyId: string): Promise<void>;
  usage(accountId: string): Promise<Usage>;
}

export interface Usage {
  accountId: string;
  plan: string;
  credits: { used: number; limit: number | null; resetsAt: string };
  wallets: { count: number; limit: number | null };
  requestsPerMinute: number;
}

async function send(url: string, init: RequestInit): Promise<HttpAnswer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body, text };
}

function encodeBody(body: unknown): string | Buffer | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body;
  return JSON.stringify(body);
}

/** Throws with the answer in the message when a setup request did not get the expected status. */
function expectStatus(a: HttpAnswer, status: number, what: string): void {
  if (a.status !== status) throw new Error(`${what}: expected ${status}, got ${a.status} ${a.text}`);
}

/**
 * Starts the real service in-process on an ephemeral port (in-memory store,
 * silent logs, admin API on) and returns request helpers bound to it. It
 * attaches to the sandbox devnets of jest's globalSetup (SANDBOX_MANIFEST)
 * when there are some, instead of starting its own.
 */
export async function startTestServer(env: Record<string, string> = {}, options: ServiceOptions = {}): Promise<TestServer> {
  const shared = process.env.SANDBOX_MANIFEST ? { SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST } : {};
  const merged: Record<string, string | undefined> = { PORT: '0', LOG_LEVEL: 'silent', ADMIN_TOKEN, ...shared, ...env };
  // Attached devnets with the memory store need a configured master key (the service refuses a random one); a test's wallets die with it anyway.
  const keyed = merged.SANDBOX_MANIFEST && !merged.MONGODB_URI && !merged.KEY_VAULT_MASTER_KEY ? { KEY_VAULT_MASTER_KEY: TEST_MASTER_KEY } : {};
  const config = loadConfig({ ...merged, ...keyed });
  const service = await startService(config, createLogger('silent'), options);
  const { url } = service;

  const rest: TestServer['rest'] = (method, path, o = {}) => {
    const headers: Record<string, string> = {};
    const body = encodeBody(o.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (o.key !== undefined) headers.Authorization = `Bearer ${o.key}`;
    // RequestInit types Buffer bodies loosely across @types/node versions.
    return send(url + path, { method, headers: { ...headers, ...o.headers }, body: body as BodyInit | undefined });
  };

  const gql: TestServer['gql'] = (query, variables, key, extra = {}) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (key !== undefined) headers.Authorization = `Bearer ${key}`;
    return send(`${url}/graphql`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify({ query, variables }) });
  };

  const adminKey = ADMIN_TOKEN;
  const admin: AdminClient = {
    async createAccount(params = {}) {
      const a = await rest('POST', '/admin/accounts', { key: adminKey, body: { plan: params.plan ?? 'free', ...params } });
      expectStatus(a, 201, 'POST /admin/accounts');
      return { accountId: a.body.account.id, key: a.body.apiKey.key, keyId: a.body.apiKey.id };
    },
    async issueKey(accountId, params = {}) {
      const a = await rest('POST', `/admin/accounts/${accountId}/keys`, { key: adminKey, body: params });
      expectStatus(a, 201, 'POST /admin/accounts/:id/keys');
      return { id: a.body.id, key: a.body.key };
    },
    async revokeKey(keyId) {
      const a = await rest('DELETE', `/admin/keys/${keyId}`, { key: adminKey });
      expectStatus(a, 204, 'DELETE /admin/keys/:keyId');
    },
    async usage(accountId) {
      const a = await rest('GET', `/admin/accounts/${accountId}/usage`, { key: adminKey });
      expectStatus(a, 200, 'GET /admin/accounts/:id/usage');
      return a.body as Usage;
    },
  };

  return { url, service, rest, gql, admin, stop: () => service.stop() };
}

/** Milliseconds left in the current fixed one-minute rate window (the windows start on whole minutes). */
export function msLeftInRateWindow(now = Date.now()): number {
  return 60_000 - (now % 60_000);
}

/** Waits for the next rate window when fewer than `needMs` are left in this one, so a burst fits in one window. */
export async function fitInRateWindow(needMs: number): Promise<void> {
  const left = msLeftInRateWindow();
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 50));
}

/** The three X-RateLimit-* headers of docs/api-guide.md, "Limits, plans and credits", parsed (NaN when absent). */
export function rateHeadersOf(h: Headers): { limit: number; remaining: number; reset: number } {
  return {
    limit: Number(h.get('x-ratelimit-limit') ?? NaN),
    remaining: Number(h.get('x-ratelimit-remaining') ?? NaN),
    reset: Number(h.get('x-ratelimit-reset') ?? NaN),
  };
}

/** Asserts the rate headers are present and sane: the limit given, 0 ≤ remaining < limit, reset a unix second within the next minute. */
export function expectRateHeaders(h: Headers, limit: number): void {
  const r = rateHeadersOf(h);
  const nowS = Math.floor(Date.now() / 1000);
  expect(r.limit).toBe(limit);
  expect(r.remaining).toBeGreaterThanOrEqual(0);
  expect(r.remaining).toBeLessThan(limit);
  expect(r.reset).toBeGreaterThan(nowS - 1);
  expect(r.reset).toBeLessThanOrEqual(nowS + 61);
}

/**
 * Seeds, straight into the store, an account whose record is corrupt (an unknown plan) with a
 * working key: any request with that key makes the service throw inside, a cheap way to see a 500.
 */
export async function seedCorruptAccountKey(srv: TestServer): Promise<string> {
  const { store } = srv.service.deps;
  const now = new Date().toISOString();
  const account = { id: newId('account'), plan: 'platinum', createdAt: now } as unknown as Account;
  await store.accounts.insert(account);
  const key = generateApiKey();
  await store.apiKeys.insert({
    id: newId('apiKey'),
    accountId: account.id,
    hash: hashApiKey(key),
    prefix: displayPrefix(key),
    name: null,
    scopes: ['read', 'write'],
    createdAt: now,
    revokedAt: null,
  });
  return key;
}

/** What a masked 500 must never show: exception names, stack frames, source paths, internals. */
export const LEAK = /TypeError|ReferenceError|requestsPerMinute|\bat \S+ \(|\.ts:\d+|node_modules|\/work\//;
