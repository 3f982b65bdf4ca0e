import { z } from 'zod';
import { CHAIN_NAMES, TOKEN_ASSETS } from '../chains';

export const tokenAssetSchema = z.enum(TOKEN_ASSETS as [string, ...string[]], { error: `asset must be one of ${TOKEN_ASSETS.join(', ')}` });
export const chainNameSchema = z.enum(CHAIN_NAMES, { error: `chain must be one of ${CHAIN_NAMES.join(', ')}` });

/** GET /yields?asset=&chain= (both optional filters). */
export const yieldsQuerySchema = z.strictObject({
  asset: tokenAssetSchema.optional(),
  chain: chainNameSchema.optional(),
});
