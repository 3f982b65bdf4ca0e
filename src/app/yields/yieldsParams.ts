import type { z } from 'zod';
import type { ChainName, TokenAsset } from '../../domain/chains';
import type { yieldsQuerySchema } from '../../domain/schemas/yields';
import type { GetYieldsParams } from './getYields';

/** The yields query as both front doors validated it (REST's query string, GraphQL's arguments), as getYields takes it. */
export function yieldsParams(q: z.output<typeof yieldsQuerySchema>): GetYieldsParams {
  return {
    asset: q.asset as TokenAsset | undefined,
    chain: q.chain as ChainName | undefined,
    ...(q.optimize !== undefined && { optimize: q.optimize }),
    ...(q.walletId !== undefined && { walletId: q.walletId }),
    ...(q.amount !== undefined && { amount: q.amount }),
    ...(q.horizonDays !== undefined && { horizonDays: Number(q.horizonDays) }),
  };
}
