import { z } from 'zod';
import { CHAIN_NAMES, TOKEN_ASSETS } from '../chains';
import { DEFAULT_HORIZON_DAYS, MAX_HORIZON_DAYS, OPTIMIZE_GOALS } from '../optimize';

export const tokenAssetSchema = z.enum(TOKEN_ASSETS as [string, ...string[]], { error: `asset must be one of ${TOKEN_ASSETS.join(', ')}` });
export const chainNameSchema = z.enum(CHAIN_NAMES, { error: `chain must be one of ${CHAIN_NAMES.join(', ')}` });

/** GET /yields?asset=&chain= (both optional filters). */
export const yieldsQuerySchema = z.strictObject({
  asset: tokenAssetSchema.optional().meta({ description: 'Only this asset; also the asset `best` is picked for (USDC when absent)' }),
  chain: chainNameSchema
    .optional()
    .meta({ description: 'Only this chain (an upcoming main network: 403 PLAN_RESTRICTED on the free plan, else 400 INVALID_CHAIN)' }),
  optimize: z
    .enum(OPTIMIZE_GOALS, { error: `optimize must be one of: ${OPTIMIZE_GOALS.join(', ')}` })
    .optional()
    .meta({
      description:
        'Opt-in: `netReturn` ranks the markets by what lending `amount` from the wallet `walletId` nets over `horizonDays` (earnings at the APY less route fees and gas) and picks `best` by it; needs walletId and amount. Without it `best` is the highest APY',
    }),
  walletId: z
    .string()
    .min(1, 'walletId must not be empty')
    .optional()
    .meta({
      description: 'With optimize: the wallet whose funds (less what its executing intents hold) are lent',
      examples: ['svc_wallet_0123456789abcdef0123456789abcdef'],
    }),
  amount: z
    .string()
    .regex(/^(?:\d*[1-9]\d*(?:\.\d+)?|0+\.(?:[1-9]\d*|0[1-9]\d*))$/, 'amount must be a plain decimal number of at least 0.01')
    .optional()
    .meta({ description: 'With optimize: the amount to lend, token units (at least 0.01)', examples: ['100'] }),
  horizonDays: z
    .string()
    .regex(/^(?:[1-9]\d{0,2}|[12]\d{3}|3[0-5]\d{2}|36[0-4]\d|3650)$/, `horizonDays must be a whole number of days from 1 to ${MAX_HORIZON_DAYS}`)
    .optional()
    .meta({ description: `With optimize: the days earnings are counted over, 1-${MAX_HORIZON_DAYS} (default ${DEFAULT_HORIZON_DAYS})`, examples: ['30'] }),
});
