import Router from '@koa/router';
import type { RestState } from '../context';
import type { AppDeps } from '../../app/deps';
import type { SandboxControls } from '../../chain/viem/sandboxControls';
import { parseInput } from '../../domain/schemas/parse';
import { faultSchema, increaseTimeSchema, mintSchema, setRateSchema } from '../../domain/schemas/sandbox';
import { toUnits } from '../../domain/money';
import type { Address } from 'viem';
import type { TokenAsset } from '../../domain/chains';

/** Sandbox-only admin controls of DESIGN §3 (mounted under /admin when the chains are sandbox devnets). */
export function sandboxAdminRoutes(deps: AppDeps, controls: SandboxControls): Router<RestState> {
  const router = new Router<RestState>({ prefix: '/sandbox' });

  router.post('/rates', async (ctx) => {
    const p = parseInput(setRateSchema, ctx.state.body);
    const r = await controls.setRate({ ...p, asset: p.asset as TokenAsset });
    deps.caches.rates.clear();
    ctx.body = { ...p, txHash: r.txHash };
  });

  router.post('/mint', async (ctx) => {
    const p = parseInput(mintSchema, ctx.state.body);
    const asset = p.asset as TokenAsset;
    const r = await controls.mint({ chain: p.chain, asset, address: p.address as Address, amount: toUnits(p.amount, asset) });
    deps.caches.holdings.clear();
    ctx.body = { ...p, txHash: r.txHash };
  });

  router.post('/faults', async (ctx) => {
    const p = parseInput(faultSchema, ctx.state.body);
    controls.registerFault(p);
    ctx.status = 201;
    ctx.body = p;
  });

  router.post('/time', async (ctx) => {
    const p = parseInput(increaseTimeSchema, ctx.state.body);
    const chains = p.chain ? [p.chain] : deps.chains.chains;
    await Promise.all(chains.map((c) => controls.increaseTime(c, p.seconds)));
    deps.caches.holdings.clear();
    ctx.body = { chains, seconds: p.seconds };
  });

  return router;
}
