import type Router from '@koa/router';
import { createRouter } from '../../http/router';
import type { Address } from 'viem';
import type { RestState } from '../context';
import type { TokenAsset } from '../../domain/chains';
import { parseInput } from '../../domain/schemas/parse';
import { faultSchema, increaseTimeSchema, mintSchema, sampleSchema, setRateSchema } from '../../domain/schemas/sandbox';
import type { SandboxAdmin } from '../../app/sandbox/sandboxAdmin';

/** Sandbox-only admin controls of docs/operations.md (mounted under /admin when the chains are sandbox devnets). */
export function sandboxAdminRoutes(admin: SandboxAdmin): Router<RestState> {
  const router = createRouter<RestState>({ prefix: '/sandbox' });

  router.get('/manifest', (ctx) => {
    ctx.body = admin.manifest();
  });

  router.post('/rates', async (ctx) => {
    const p = parseInput(setRateSchema, ctx.state.body);
    ctx.body = await admin.setRate({ ...p, asset: p.asset as TokenAsset });
  });

  router.post('/mint', async (ctx) => {
    const p = parseInput(mintSchema, ctx.state.body);
    ctx.body = await admin.mint({ ...p, asset: p.asset as TokenAsset, address: p.address as Address });
  });

  router.post('/faults', async (ctx) => {
    const p = parseInput(faultSchema, ctx.state.body);
    ctx.body = await admin.registerFault(p);
    ctx.status = 201;
  });

  router.post('/time', async (ctx) => {
    ctx.body = await admin.advanceTime(parseInput(increaseTimeSchema, ctx.state.body));
  });

  router.post('/sample', async (ctx) => {
    ctx.body = await admin.sample(parseInput(sampleSchema, ctx.state.body));
  });

  return router;
}
