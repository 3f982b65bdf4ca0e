import { PLANS, type PlanName } from './plans';

/** docs/decisions.md, "staging": one deployment per environment, each with its own database. */
export const SERVICE_ENVIRONMENTS = ['development', 'staging', 'production'] as const;
export type ServiceEnvironment = (typeof SERVICE_ENVIRONMENTS)[number];

/** Whether an account may use main networks: its plan must include them, and staging serves test networks only, whatever the plan. */
export function mainNetworksAllowed(plan: PlanName, environment: ServiceEnvironment): boolean {
  return environment !== 'staging' && PLANS[plan].mainNetworks;
}
