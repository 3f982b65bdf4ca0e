import { z } from 'zod';

/** POST /demo/fund: only walletId counts; `chain` and `amount` are accepted and ignored (named in `warnings`). */
export const fundDemoSchema = z.strictObject({
  walletId: z.string({ error: 'walletId must be a string' }).min(1, 'walletId is required').max(128),
  chain: z.unknown().optional(),
  amount: z.unknown().optional(),
});

export type FundDemoParams = z.output<typeof fundDemoSchema>;
