import { z } from 'zod';

/** POST /demo/fund: only walletId counts; `chain` and `amount` are accepted and ignored (named in `warnings`). */
export const fundDemoSchema = z.strictObject({
  walletId: z
    .string({ error: 'walletId must be a string' })
    .min(1, 'walletId is required')
    .max(128)
    .meta({ description: 'The wallet to fund (one of yours)', examples: ['svc_wallet_0123456789abcdef0123456789abcdef'] }),
  chain: z.unknown().optional().meta({ description: 'Accepted and ignored (named in `warnings`): funding is always on arbitrum-sepolia' }),
  amount: z.unknown().optional().meta({ description: 'Accepted and ignored (named in `warnings`): funding is always 1 USDC' }),
});

export type FundDemoParams = z.output<typeof fundDemoSchema>;
