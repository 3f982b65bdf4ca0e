import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPkcs11js } from '../../src/chain/keys/pkcs11/binding';

export const SOFTHSM_MODULE = process.env.PKCS11_MODULE ?? '/usr/lib/softhsm/libsofthsm2.so';

/**
 * Why the pkcs11 lane cannot run here (printed by the suites that skip), or undefined when it can.
 * With PKCS11_LANE_REQUIRED=1 (CI) a missing piece throws instead: the lane must not skip quietly there.
 */
export function softhsmMissing(): string | undefined {
  const why = missingPiece();
  if (why && process.env.PKCS11_LANE_REQUIRED === '1') throw new Error(`PKCS11_LANE_REQUIRED=1 but the pkcs11 lane cannot run: ${why}`);
  return why;
}

function missingPiece(): string | undefined {
  if (!existsSync(SOFTHSM_MODULE)) return `no PKCS#11 module at ${SOFTHSM_MODULE} (apt-get install softhsm2)`;
  if (!loadPkcs11js()) return 'the optional package pkcs11js is not installed or not built (npm ci with a C++ compiler)';
  try {
    execFileSync('softhsm2-util', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'softhsm2-util is not on PATH (apt-get install softhsm2)';
  }
  return undefined;
}

export interface SoftToken {
  label: string;
  pin: string;
  /** What the service reads (KEY_PROVIDER=pkcs11 and the PKCS11_* variables), with SOFTHSM2_CONF for a child process. */
  env: Record<string, string>;
  /** Deletes the token (its keys with it). */
  remove(): void;
}

/**
 * The SoftHSM2 configuration of this run: SOFTHSM2_CONF as the jest lane set
 * it (test/setup/softhsmLane.ts), else (a script outside jest) a temporary
 * one, set before the library is loaded in this process.
 */
function softhsmConf(): string {
  if (process.env.SOFTHSM2_CONF) return process.env.SOFTHSM2_CONF;
  const dir = mkdtempSync(join(tmpdir(), 'softhsm-'));
  mkdirSync(join(dir, 'tokens'));
  const conf = join(dir, 'softhsm2.conf');
  writeFileSync(conf, `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  process.env.SOFTHSM2_CONF = conf;
  return conf;
}

/** A fresh SoftHSM2 token of its own label in this run's token directory. */
export function createSoftToken(label = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`): SoftToken {
  const conf = softhsmConf();
  const pin = '123456';
  const env = { ...process.env, SOFTHSM2_CONF: conf };
  execFileSync('softhsm2-util', ['--init-token', '--free', '--label', label, '--pin', pin, '--so-pin', '654321'], { env, stdio: 'ignore' });
  return {
    label,
    pin,
    env: { SOFTHSM2_CONF: conf, KEY_PROVIDER: 'pkcs11', PKCS11_MODULE: SOFTHSM_MODULE, PKCS11_TOKEN_LABEL: label, PKCS11_PIN: pin },
    remove: () => {
      try {
        execFileSync('softhsm2-util', ['--delete-token', '--token', label], { env, stdio: 'ignore' });
      } catch {
        // already gone
      }
    },
  };
}
