import { ServiceError } from './base';
import type { PolicyRefusal, PolicyRef } from '../policy';

export const policyViolation = (policy: PolicyRef, refusal: PolicyRefusal): ServiceError =>
  new ServiceError('POLICY_VIOLATION', `The wallet's spending policy does not allow this: rule ${refusal.rule}`, {
    details: { policyId: policy.id, version: policy.version, rule: refusal.rule, limit: refusal.limit, requested: refusal.requested },
  });

export const policyNotFound = (policyId: string): ServiceError => new ServiceError('POLICY_NOT_FOUND', 'Policy not found', { details: { policyId } });

export const policyInUse = (policyId: string, walletCount: number, accountPolicy: boolean): ServiceError =>
  new ServiceError(
    'POLICY_IN_USE',
    accountPolicy
      ? 'The policy is the account policy: it governs every wallet without its own'
      : `The policy governs ${walletCount} wallet(s): remove it from them first`,
    {
      details: { policyId, walletCount, accountPolicy },
    },
  );

export const policyConflict = (existing: string): ServiceError =>
  new ServiceError('POLICY_CONFLICT', 'The account already has an account-scope policy', { details: { policyId: existing } });
