import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPkcs11js } from '../../src/chain/keys/pkcs11/binding';

export const SOFTHSM_MODULE = process.env.PKCS11_MODULE ?? '/usr/lib/softhsm/libsofthsm2.so';

/** Why the pkcs11 lane cannot run here (printed by the suites that skip), or undefined when it can. */
export function softhsmMissing(): string | undefined {
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
  dir: string;
  /** What the service reads (KEY_PROVIDER=pkcs11 and the PKCS11_* variables), with SOFTHSM2_CONF. */
  env: Record<string, string>;
  label: string;
  pin: string;
  remove(): void;
}

/**
 * A fresh SoftHSM2 token in a temporary directory. SOFTHSM2_CONF is set in
 * this process too (the library reads it when loaded): every token of one
 * process shares the first configuration it loaded, so a test file makes
 * one token directory and several tokens inside it.
 */
export function createSoftToken(label = `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, dir?: string): SoftToken {
  const root = dir ?? process.env.SOFTHSM2_CONF?.replace(/\/softhsm2\.conf$/, '') ?? mkdtempSync(join(tmpdir(), 'softhsm-'));
  const conf = join(root, 'softhsm2.conf');
  if (!existsSync(conf)) {
    execFileSync('mkdir', ['-p', join(root, 'tokens')]);
    writeFileSync(conf, `directories.tokendir = ${join(root, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  }
  process.env.SOFTHSM2_CONF = conf;
  const pin = '123456';
  execFileSync('softhsm2-util', ['--init-token', '--free', '--label', label, '--pin', pin, '--so-pin', '654321'], {
    env: { ...process.env, SOFTHSM2_CONF: conf },
    stdio: 'ignore',
  });
  return {
    dir: root,
    label,
    pin,
    env: { SOFTHSM2_CONF: conf, KEY_PROVIDER: 'pkcs11', PKCS11_MODULE: SOFTHSM_MODULE, PKCS11_TOKEN_LABEL: label, PKCS11_PIN: pin },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
