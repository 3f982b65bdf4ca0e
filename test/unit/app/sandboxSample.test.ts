import { sandboxAdmin } from '../../../src/app/sandbox/sandboxAdmin';
import { parseInput } from '../../../src/domain/schemas/parse';
import { sampleSchema } from '../../../src/domain/schemas/sandbox';
import { isServiceError } from '../../../src/domain/errors/base';
import type { SampleTaken } from '../../../src/app/yields/rateSampler';
import type { SandboxControls } from '../../../src/ports/sandboxControls';
import type { SandboxManifest } from '../../../src/ports/deploymentManifest';
import type { AppDeps } from '../../../src/app/deps';

const NOW = new Date('2026-03-10T12:34:56.000Z');

/** The admin's sample control over a sampler that records what it was asked. */
function adminWithSampler() {
  const asked: (Date | undefined)[] = [];
  const sampler = {
    async sampleAndSettle(at?: Date): Promise<SampleTaken> {
      asked.push(at);
      const minute = new Date(Math.floor((at ?? NOW).getTime() / 60_000) * 60_000).toISOString();
      return {
        at: minute,
        samples: [{ chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: '0x0000000000000000000000000000000000000001', at: minute, apy: 4.2 }],
        costs: { gasUsdPerUnit: {}, routeFeeBps: {} },
      };
    },
  };
  const deps = { chains: {}, caches: {}, clock: { now: () => NOW } } as unknown as Pick<AppDeps, 'chains' | 'caches' | 'clock'>;
  const admin = sandboxAdmin(deps, {} as SandboxControls, {} as SandboxManifest, sampler);
  return { admin, asked };
}

/** The field paths a refused body names (an empty list: it was not refused). */
async function refused(run: () => Promise<unknown>): Promise<string[]> {
  try {
    await run();
    return [];
  } catch (e) {
    if (!isServiceError(e) || e.code !== 'INVALID_REQUEST') throw e;
    return (e.details.issues as { path: string }[]).map((i) => i.path);
  }
}

describe('sandbox admin: a rate sample on demand', () => {
  test('behavior: without `at` the sample is now; with `at` it is filed under that minute; the answer is the minute and every market sampled', async () => {
    const { admin, asked } = adminWithSampler();
    expect(await admin.sample(parseInput(sampleSchema, {}))).toEqual({
      at: '2026-03-10T12:34:00.000Z',
      markets: [{ chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: '0x0000000000000000000000000000000000000001', apy: 4.2 }],
    });
    const answer = await admin.sample(parseInput(sampleSchema, { at: '2026-03-10T09:00:30Z' }));
    expect(answer.at).toBe('2026-03-10T09:00:00.000Z');
    // the current minute itself is allowed
    await admin.sample({ at: '2026-03-10T12:34:59.999Z' });
    expect(asked.map((d) => d?.toISOString())).toEqual([undefined, '2026-03-10T09:00:30.000Z', '2026-03-10T12:34:59.999Z']);
  });

  test.each([
    [{ at: 'yesterday' }, ['at']],
    [{ at: 1_700_000_000_000 }, ['at']],
    [{ at: '2026-02-30T00:00:00Z' }, ['at']],
    [{ at: '2026-03-10T00:00:00Z', chain: 'base-sepolia' }, ['chain']],
  ])('error: body %j is 400 INVALID_REQUEST naming %j', async (body, paths) => {
    const { admin, asked } = adminWithSampler();
    expect(await refused(() => admin.sample(parseInput(sampleSchema, body)))).toEqual(paths);
    expect(asked).toEqual([]);
  });

  test.each([
    ['2026-03-10T12:35:00Z', 'after the current minute'],
    ['2025-12-10T12:34:56Z', 'within the 90 days'],
  ])('error: at %s is refused (%s) and nothing is sampled', async (at, why) => {
    const { admin, asked } = adminWithSampler();
    let message = '';
    try {
      await admin.sample({ at });
    } catch (e) {
      if (isServiceError(e)) message = JSON.stringify(e.details);
    }
    expect(message).toContain(why);
    expect(asked).toEqual([]);
  });
});
