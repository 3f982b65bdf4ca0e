import type { Policy } from '../../domain/policy';

/** A policy as both front doors return it (the owning account is implied by the caller). */
export type PolicyView = Omit<Policy, 'accountId'>;

export function toPolicyView(p: Policy): PolicyView {
  const { accountId, ...view } = p;
  void accountId;
  return view;
}
