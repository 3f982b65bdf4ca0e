import { z } from 'zod';
import { metadataSchema } from './metadata';

/** DESIGN §4: 1–128 chars of `A-Z a-z 0-9 . _ : @ -`. */
export const USER_ID_PATTERN = /^[A-Za-z0-9._:@-]*$/;

export const userIdSchema = z
  .string({ error: 'userId must be a string' })
  .min(1, 'userId must not be empty')
  .max(128, 'userId must be at most 128 characters')
  .regex(USER_ID_PATTERN, 'userId may contain only A-Z a-z 0-9 . _ : @ -');

export const chainTypeSchema = z.enum(['ethereum', 'tron'], { error: 'chainType must be "ethereum" or "tron"' });

export const createWalletSchema = z.strictObject({
  userId: userIdSchema,
  chainType: chainTypeSchema.default('ethereum'),
  email: z.email({ error: 'email must be a valid e-mail address' }).max(254).optional(),
  metadata: metadataSchema.optional(),
});

export type CreateWalletInput = z.input<typeof createWalletSchema>;
export type CreateWalletParams = z.output<typeof createWalletSchema>;
