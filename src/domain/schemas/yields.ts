import { z } from 'zod';
import { CHAIN_NAMES, TOKEN_ASSETS } from '../chains';

export const tokenAssetSchema = z.enum(TOKEN_ASSETS as [string, ...string[]], { error: `asset must be one of ${TOKEN_ASSETS.join(', ')}` });
export const chainNameSchema = z.enum(CHAIN_NAMES, { error: `chain must be one of ${CHAIN_NAMES.join(', ')}` });

/** GET /yields?asset=&chain= (both optional filters). */
export const yieldsQuerySchema = z.strictObject({
  asset: tokenAssetSchema.optional().meta({ description: 'Only this asset; also the asset `best` is picked for (USDC when absent)' }),
  chain: chainNameSchema.optional().meta({ description: 'Only this chain (an upcoming main network: 403 PLAN_RESTRICTED on the free plan, else 400 INVALID_CHAIN)' }),
});
