import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The pkcs11 lane's SoftHSM2 configuration: a temporary token directory for
 * the run, named by SOFTHSM2_CONF. The library reads the variable from the
 * process's real environment when it loads, which a test file cannot change
 * (jest gives it a copy), so it is set here and the workers inherit it; each
 * test file then makes its own token in that directory (test/helpers/softhsm.ts).
 */
export function startSoftHsmLane(): void {
  if (process.env.SOFTHSM2_CONF) return;
  const dir = mkdtempSync(join(tmpdir(), 'softhsm-'));
  mkdirSync(join(dir, 'tokens'));
  const conf = join(dir, 'softhsm2.conf');
  writeFileSync(conf, `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  process.env.SOFTHSM2_CONF = conf;
  (globalThis as { __SOFTHSM__?: string }).__SOFTHSM__ = dir;
}

export function stopSoftHsmLane(): void {
  const holder = globalThis as { __SOFTHSM__?: string };
  if (!holder.__SOFTHSM__) return;
  rmSync(holder.__SOFTHSM__, { recursive: true, force: true });
  delete holder.__SOFTHSM__;
  delete process.env.SOFTHSM2_CONF;
}
