import { z } from 'zod';
import { metadataSchema } from './metadata';

/** docs/decisions.md: 1–128 chars of `A-Z a-z 0-9 . _ : @ -`. */
export const USER_ID_PATTERN = /^[A-Za-z0-9._:@-]*$/;

export const userIdSchema = z
  .string({ error: 'userId must be a string' })
  .min(1, 'userId must not be empty')
  .max(128, 'userId must be at most 128 characters')
  .regex(USER_ID_PATTERN, 'userId may contain only A-Z a-z 0-9 . _ : @ -')
  .meta({ description: "Your application's id for the user: 1-128 characters of A-Z a-z 0-9 . _ : @ -, unique within the account", examples: ['user_42'] });

export const chainTypeSchema = z
  .enum(['ethereum', 'tron'], { error: 'chainType must be "ethereum" or "tron"' })
  .meta({ description: 'ethereum: an EVM address on every chain the plan allows; tron: a Tron address (no chain supported for intents yet)' });

export const createWalletSchema = z.strictObject({
  userId: userIdSchema,
  chainType: chainTypeSchema.default('ethereum'),
  email: z
    .email({ error: 'email must be a valid e-mail address' })
    .max(254)
    .optional()
    .meta({ description: 'Shown to the owner only (never to paid readers)', examples: ['ada@example.com'] }),
  metadata: metadataSchema.optional(),
  policyId: z
    .string({ error: 'policyId must be a string' })
    .min(1, 'policyId must not be empty')
    .max(64)
    .optional()
    .meta({
      description: "A wallet-scope spending policy of your account to govern the new wallet (else the account's account-scope policy, if any)",
      examples: ['svc_policy_0123456789abcdef0123456789abcdef'],
    }),
});

export type CreateWalletInput = z.input<typeof createWalletSchema>;
export type CreateWalletParams = z.output<typeof createWalletSchema>;
