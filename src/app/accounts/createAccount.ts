import type { AppDeps } from '../deps';
import type { Account, ApiKeyRecord, Scope } from '../../domain/types';
import type { PlanName } from '../../domain/plans';
import { newId } from '../../domain/ids';
import { displayPrefix, generateApiKey, hashApiKey } from './apiKeyFormat';
import { recordAudit } from '../audit/recordAudit';
import type { AuditActor } from '../../domain/audit';
import { forbidden } from '../../domain/errors/auth';

/**
 * Keys one account may hold, active or revoked, however they are issued
 * (admin API, dashboard): what bounds every listing of an account's keys.
 */
export const MAX_KEYS_PER_ACCOUNT = 50;

/** A key as shown once at creation: the only time the full key is returned. */
export interface IssuedApiKey {
  id: string;
  key: string;
  prefix: string;
  name: string | null;
  scopes: Scope[];
  createdAt: string;
}

export interface IssueKeyParams {
  accountId: string;
  name?: string | null;
  scopes?: Scope[];
  /** Register this exact key (DEV_API_KEY bootstrap) instead of generating one. */
  presetKey?: string;
  /** Who issues it: recorded as `apikey.created` (id, prefix, name, scopes; never the key). Absent: not recorded. */
  actor?: AuditActor;
}

/** Issues an API key for an account; stores only its SHA-256 and display prefix. An account holding MAX_KEYS_PER_ACCOUNT is 403 FORBIDDEN. */
export async function issueApiKey(deps: Pick<AppDeps, 'store' | 'clock' | 'logger'>, params: IssueKeyParams): Promise<IssuedApiKey> {
  if ((await deps.store.apiKeys.listByAccount(params.accountId)).length >= MAX_KEYS_PER_ACCOUNT) {
    throw forbidden(`An account holds at most ${MAX_KEYS_PER_ACCOUNT} keys`, { limit: MAX_KEYS_PER_ACCOUNT });
  }
  const key = params.presetKey ?? generateApiKey();
  const record: ApiKeyRecord = {
    id: newId('apiKey'),
    accountId: params.accountId,
    hash: hashApiKey(key),
    prefix: displayPrefix(key),
    name: params.name ?? null,
    scopes: params.scopes ?? ['read', 'write'],
    createdAt: deps.clock.now().toISOString(),
    revokedAt: null,
  };
  await deps.store.apiKeys.insert(record);
  if (params.actor) {
    await recordAudit(deps, {
      accountId: record.accountId,
      type: 'apikey.created',
      actor: params.actor,
      subject: { keyId: record.id },
      details: { prefix: record.prefix, name: record.name, scopes: record.scopes },
    });
  }
  return { id: record.id, key, prefix: record.prefix, name: record.name, scopes: record.scopes, createdAt: record.createdAt };
}

interface NewAccountParams {
  plan: PlanName;
  requestsPerMinute?: number;
  /** Account.paidEmailLookups: set only when true. */
  paidEmailLookups?: boolean;
  keyName?: string;
  scopes?: Scope[];
  presetKey?: string;
  /** Who creates it: its first key is recorded as issued by them. */
  actor?: AuditActor;
}

/** Creates an account on a plan with its first API key (or, for a dashboard sign-up, with none: keys are created there). */
export async function createAccount(
  deps: Pick<AppDeps, 'store' | 'clock' | 'logger'>,
  params: NewAccountParams & { withoutKey: true },
): Promise<{ account: Account }>;
export async function createAccount(
  deps: Pick<AppDeps, 'store' | 'clock' | 'logger'>,
  params: NewAccountParams,
): Promise<{ account: Account; apiKey: IssuedApiKey }>;
export async function createAccount(
  deps: Pick<AppDeps, 'store' | 'clock' | 'logger'>,
  params: NewAccountParams & { withoutKey?: boolean },
): Promise<{ account: Account; apiKey?: IssuedApiKey }> {
  const account: Account = { id: newId('account'), plan: params.plan, createdAt: deps.clock.now().toISOString() };
  if (params.requestsPerMinute) account.requestsPerMinute = params.requestsPerMinute;
  if (params.paidEmailLookups) account.paidEmailLookups = true;
  await deps.store.accounts.insert(account);
  if (params.withoutKey) return { account };
  const apiKey = await issueApiKey(deps, {
    accountId: account.id,
    name: params.keyName ?? 'default',
    scopes: params.scopes,
    presetKey: params.presetKey,
    actor: params.actor,
  });
  return { account, apiKey };
}
