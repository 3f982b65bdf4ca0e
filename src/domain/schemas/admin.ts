import { z } from 'zod';
import { PLAN_NAMES } from '../plans';

export const scopesSchema = z
  .array(z.enum(['read', 'write'], { error: 'scopes may contain "read" and "write"' }))
  .min(1, 'scopes must name at least one scope');

export const createAccountSchema = z.strictObject({
  plan: z.enum(PLAN_NAMES, { error: `plan must be one of ${PLAN_NAMES.join(', ')}` }).default('free'),
  requestsPerMinute: z.number().int().positive().max(1_000_000).optional(),
  /** Lets paid reads (x402) look up this account's wallets by user ids that are e-mail addresses; off by default. */
  paidEmailLookups: z.boolean().optional(),
  keyName: z.string().min(1).max(64).optional(),
  scopes: scopesSchema.optional(),
});

export const createKeySchema = z.strictObject({
  name: z.string().min(1).max(64).optional(),
  scopes: scopesSchema.optional(),
});
