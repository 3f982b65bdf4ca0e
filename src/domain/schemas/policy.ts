import { z } from 'zod';
import { CHAIN_NAMES, LENDING_PROTOCOLS } from '../chains';
import { INTENT_ACTIONS } from '../intent';

const USD = /^\d{1,12}(\.\d{1,2})?$/;

/** A USD amount: a number or decimal string, > 0, at most 2 decimals; normalised to a decimal string. */
const usdAmount = (name: string) =>
  z
    .union([z.number(), z.string()], { error: `${name} must be a number or a decimal string` })
    .transform((v) => (typeof v === 'number' ? String(v) : v))
    .refine((s) => USD.test(s), `${name} must be a positive amount of USD with at most 2 decimals, like "100" or "12.50"`)
    .refine((s) => !USD.test(s) || /[1-9]/.test(s), `${name} must be greater than 0`);

/** A non-empty list of distinct values of `values`. */
const listOf = <T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z
    .array(z.enum(values, { error: `${name} may contain ${values.join(', ')}` }), { error: `${name} must be a list` })
    .min(1, `${name} must not be empty (omit it to allow every value)`)
    .refine((l) => new Set(l).size === l.length, `${name} must not repeat a value`);

export const policyRulesSchema = z
  .strictObject(
    {
      actions: listOf('actions', INTENT_ACTIONS)
        .optional()
        .meta({ description: 'The intent actions allowed (absent: all of them)', examples: [['lend', 'withdraw']] }),
      chains: listOf('chains', CHAIN_NAMES)
        .optional()
        .meta({
          description: 'The chains an intent may touch: where its funds leave, pass and arrive (absent: all of them). The planner uses no other',
          examples: [['arbitrum-sepolia', 'base-sepolia']],
        }),
      protocols: listOf('protocols', LENDING_PROTOCOLS)
        .optional()
        .meta({
          description: 'The lending protocols an intent may supply to or withdraw from, named as in /yields (absent: all of them)',
          examples: [[LENDING_PROTOCOLS[0]]],
        }),
      maxUsdPerIntent: usdAmount('maxUsdPerIntent')
        .optional()
        .meta({
          description: "The most one intent may move, in USD at the asset's price when it is accepted (exactly the limit is allowed)",
          examples: ['100'],
        }),
      maxUsdPerDay: usdAmount('maxUsdPerDay')
        .optional()
        .meta({
          description:
            'The most one wallet may move in any rolling 24 h, in USD; each intent reserves its value when accepted, and gets it back when it fails before signing anything',
          examples: ['500.50'],
        }),
    },
    { error: 'rules must be an object' },
  )
  .refine((r) => Object.values(r).some((v) => v !== undefined), 'rules must set at least one rule')
  .meta({ description: 'What the policy allows: every rule optional, at least one; an absent rule allows everything it would govern' });

/** POST /v1/policies. */
export const createPolicySchema = z.strictObject({
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .min(1, 'name is required')
    .max(64, 'name must be at most 64 characters')
    .meta({ description: 'For people: 1-64 characters once surrounding whitespace is trimmed (stored trimmed)', examples: ['Small lends on L2s'] }),
  scope: z.enum(['wallet', 'account'], { error: 'scope must be "wallet" or "account"' }).default('wallet').meta({
    description:
      'wallet: governs the wallets it is set on (PUT /wallets/{walletId}/policy); account: governs every wallet of the account without a policy of its own (one per account)',
  }),
  rules: policyRulesSchema,
});

/** PUT /v1/policies/:policyId: replaces the name and rules (the scope stays). */
export const updatePolicySchema = z.strictObject({
  name: createPolicySchema.shape.name,
  rules: policyRulesSchema,
});

/** PUT /v1/wallets/:walletId/policy. */
export const setWalletPolicySchema = z.strictObject({
  policyId: z
    .string({ error: 'policyId must be a string' })
    .min(1, 'policyId is required')
    .max(64)
    .meta({ description: 'A wallet-scope policy of your account', examples: ['svc_policy_0123456789abcdef0123456789abcdef'] }),
});

export type CreatePolicyParams = z.output<typeof createPolicySchema>;
export type UpdatePolicyParams = z.output<typeof updatePolicySchema>;
