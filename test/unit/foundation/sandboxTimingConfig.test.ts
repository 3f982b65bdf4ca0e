import { ConfigError, loadConfig } from '../../../src/config';

/** The message of the ConfigError `env` produces (fails the test when none is thrown). */
function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error(`accepted: ${JSON.stringify(env)}`);
}

describe('config: SANDBOX_TIMING and SANDBOX_SPEED', () => {
  test('behavior: the default is instant at ×1, and the stuck-transaction period stays 5 s in a sandbox', () => {
    const c = loadConfig({});
    expect(c.sandboxTiming).toEqual({ timing: 'instant', speed: 1 });
    expect(c.txStuckAfterMs).toBe(5_000);
  });

  test('behavior: testnets at ×1 waits 30 s (2.5 Sepolia blocks) before a transaction counts as stuck; ×10 keeps the 5 s floor', () => {
    const real = loadConfig({ SANDBOX_TIMING: 'testnets' });
    expect(real.sandboxTiming).toEqual({ timing: 'testnets', speed: 1 });
    expect(real.txStuckAfterMs).toBe(30_000);
    const fast = loadConfig({ SANDBOX_TIMING: 'testnets', SANDBOX_SPEED: '10' });
    expect(fast.sandboxTiming).toEqual({ timing: 'testnets', speed: 10 });
    expect(fast.txStuckAfterMs).toBe(5_000);
    expect(loadConfig({ SANDBOX_TIMING: 'testnets', SANDBOX_SPEED: '2.5' }).sandboxTiming.speed).toBe(2.5);
  });

  test('behavior: TX_STUCK_AFTER_MS still wins over the pace', () => {
    expect(loadConfig({ SANDBOX_TIMING: 'testnets', TX_STUCK_AFTER_MS: '8000' }).txStuckAfterMs).toBe(8_000);
  });

  test('error: an unknown timing, a speed below 1 or not a number are refused, naming the variable', () => {
    expect(configError({ SANDBOX_TIMING: 'mainnet' })).toMatch(/SANDBOX_TIMING: must be instant .* or testnets/);
    expect(configError({ SANDBOX_TIMING: 'testnets', SANDBOX_SPEED: '0.5' })).toMatch(/SANDBOX_SPEED: must be a factor of at least 1/);
    expect(configError({ SANDBOX_TIMING: 'testnets', SANDBOX_SPEED: 'fast' })).toMatch(/SANDBOX_SPEED: must be a number/);
  });

  test('error: SANDBOX_SPEED without testnets, and SANDBOX_BLOCK_TIME_MS with testnets, are refused', () => {
    expect(configError({ SANDBOX_SPEED: '10' })).toMatch(/SANDBOX_SPEED: applies to SANDBOX_TIMING=testnets only/);
    expect(configError({ SANDBOX_TIMING: 'testnets', SANDBOX_BLOCK_TIME_MS: '1000' })).toMatch(
      /SANDBOX_BLOCK_TIME_MS: cannot be combined with SANDBOX_TIMING=testnets/,
    );
  });

  test('behavior: SANDBOX_BLOCK_TIME_MS keeps working with instant timing', () => {
    expect(loadConfig({ SANDBOX_BLOCK_TIME_MS: '250' })).toMatchObject({ sandboxBlockTimeMs: 250, sandboxTiming: { timing: 'instant', speed: 1 } });
  });
});
