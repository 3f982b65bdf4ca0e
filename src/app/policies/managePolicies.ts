import { z } from 'zod';
import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import type { Policy } from '../../domain/policy';
import { newId } from '../../domain/ids';
import { DuplicateError } from '../../ports/store';
import { parseInput } from '../../domain/schemas/parse';
import { createPolicySchema, updatePolicySchema } from '../../domain/schemas/policy';
import { policyConflict, policyInUse, policyNotFound } from '../../domain/errors/policy';
import { ServiceError } from '../../domain/errors/base';
import { decodeCursor, encodeCursor } from '../intents/listIntents';
import { toPolicyView, type PolicyView } from './policyView';
import { actorOf, recordAudit } from '../audit/recordAudit';

type Deps = Pick<AppDeps, 'store' | 'clock'> & Partial<Pick<AppDeps, 'logger'>>;

/** The caller's policy, or POLICY_NOT_FOUND (another account's answers the same as none). */
export async function ownPolicy(deps: Pick<AppDeps, 'store'>, principal: Principal, policyId: string): Promise<Policy> {
  const p = await deps.store.policies.get(policyId);
  if (!p || p.accountId !== principal.account.id) throw policyNotFound(policyId);
  return p;
}

/** POST /policies: 201 with the policy at version 1; a second account-scope policy is POLICY_CONFLICT. */
export async function createPolicy(deps: Deps, principal: Principal, body: unknown): Promise<PolicyView> {
  const params = parseInput(createPolicySchema, body);
  const now = deps.clock.now().toISOString();
  const policy: Policy = {
    id: newId('policy'),
    accountId: principal.account.id,
    name: params.name,
    scope: params.scope,
    rules: params.rules,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.store.policies.insert(policy);
  } catch (e) {
    if (e instanceof DuplicateError && e.index === 'policies.accountScope') {
      const existing = await deps.store.policies.accountPolicy(principal.account.id);
      throw policyConflict(existing?.id ?? 'unknown');
    }
    throw e;
  }
  await recordAudit(deps, {
    accountId: policy.accountId,
    type: 'policy.created',
    actor: actorOf(principal),
    subject: { policyId: policy.id },
    details: { name: policy.name, scope: policy.scope, rules: policy.rules, version: 1 },
  });
  return toPolicyView(policy);
}

export async function getPolicy(deps: Pick<AppDeps, 'store'>, principal: Principal, policyId: string): Promise<PolicyView> {
  return toPolicyView(await ownPolicy(deps, principal, policyId));
}

/** Query of GET /policies and Query.policies (the OpenAPI document uses it too). */
export const listPoliciesSchema = z.strictObject({
  first: z.coerce
    .number({ error: 'first must be a whole number' })
    .int('first must be a whole number')
    .min(1, 'first must be at least 1')
    .max(100, 'first must be at most 100')
    .default(20)
    .meta({ description: 'Page size, 1-100 (default 20)' }),
  after: z.string().min(1, 'after must not be empty').optional().meta({ description: '`pageInfo.endCursor` of the previous page' }),
});

/** The account's policies, newest first, by cursor (like intents). */
export async function listPolicies(deps: Pick<AppDeps, 'store'>, principal: Principal, query: Record<string, unknown>) {
  const q = parseInput(listPoliciesSchema, query);
  const after = q.after === undefined ? undefined : decodeCursor(q.after);
  const items = await deps.store.policies.listByAccount(principal.account.id, { limit: q.first + 1, after });
  const edges = items.slice(0, q.first).map((p) => ({ cursor: encodeCursor(p), node: toPolicyView(p) }));
  return { edges, pageInfo: { hasNextPage: items.length > q.first, endCursor: edges[edges.length - 1]?.cursor ?? null } };
}

/** PUT /policies/:id: replaces name and rules, version + 1; intents accepted afterwards follow the new version. */
export async function updatePolicy(deps: Deps, principal: Principal, policyId: string, body: unknown): Promise<PolicyView> {
  const params = parseInput(updatePolicySchema, body);
  for (let attempt = 0; attempt < 3; attempt++) {
    const cur = await ownPolicy(deps, principal, policyId);
    const next: Policy = { ...cur, name: params.name, rules: params.rules, version: cur.version + 1, updatedAt: deps.clock.now().toISOString() };
    if (await deps.store.policies.update(next, cur.version)) {
      await recordAudit(deps, {
        accountId: next.accountId,
        type: 'policy.updated',
        actor: actorOf(principal),
        subject: { policyId: next.id },
        details: { name: next.name, rules: next.rules, version: next.version, previousVersion: cur.version },
      });
      return toPolicyView(next);
    }
  }
  throw new ServiceError('VERSION_CONFLICT', 'The policy was changed concurrently; try again', { details: { policyId } });
}

/**
 * DELETE /policies/:id: 204, or POLICY_IN_USE while a wallet uses it as its
 * own, or (an account-scope policy) while it is the account's policy, that is
 * while any wallet of the account has no policy of its own.
 */
export async function deletePolicy(deps: Deps, principal: Principal, policyId: string): Promise<void> {
  const p = await ownPolicy(deps, principal, policyId);
  if (p.scope === 'account') {
    const governed = await deps.store.wallets.countWithoutPolicy(principal.account.id);
    if (governed > 0) throw policyInUse(p.id, governed, true);
  }
  const wallets = await deps.store.wallets.countByPolicy(p.id);
  if (wallets > 0) throw policyInUse(p.id, wallets, false);
  await deps.store.policies.delete(p.id);
  await recordAudit(deps, {
    accountId: p.accountId,
    type: 'policy.deleted',
    actor: actorOf(principal),
    subject: { policyId: p.id },
    details: { name: p.name, version: p.version },
  });
}
