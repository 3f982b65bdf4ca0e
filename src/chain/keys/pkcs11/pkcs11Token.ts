import { isServiceError } from '../../../domain/errors/base';
import { keyProviderUnavailable } from '../../../domain/errors/keys';
import { KeyProviderStartError } from '../startError';
import { ckrOf, loadPkcs11js, type Handle, type Pkcs11Api, type Pkcs11Module } from './binding';

export interface TokenOptions {
  /** PKCS11_MODULE: the library's path. */
  module: string;
  /** PKCS11_TOKEN_LABEL. */
  tokenLabel: string;
  /** PKCS11_PIN (or PKCS11_PIN_FILE's content). */
  pin: string;
  /** Sessions in the pool (default 4): how many token calls run at once. */
  sessions?: number;
}

/**
 * One logged-in connection to a PKCS#11 token: the library loaded and
 * initialised once, a pool of sessions under one login. A call that loses
 * its session (the token removed, the sessions closed, a library error)
 * fails transient and marks the pool broken; the next call opens the
 * sessions again and logs in.
 */
export interface Pkcs11Token {
  readonly api: Pkcs11Api;
  readonly ck: Pkcs11Module;
  /** Runs `fn` with a session of the pool; a token failure becomes NETWORK_ERROR (transient). */
  withSession<T>(fn: (session: Handle) => T | Promise<T>): Promise<T>;
  /** Bumped at each reconnect: object handles found before it may no longer hold. */
  generation(): number;
  /** Test hook: closes every session (as a token restart does); `hold` keeps the token away until `release()`. */
  closeSessions(options?: { hold?: boolean }): void;
  release(): void;
  close(): void;
}

const PIN_ERRORS = ['CKR_PIN_INCORRECT', 'CKR_PIN_INVALID', 'CKR_PIN_LEN_RANGE', 'CKR_PIN_EXPIRED', 'CKR_PIN_LOCKED'];

/**
 * One loaded library per path and process: a PKCS#11 library keeps one state
 * per process (C_Finalize by one user ends every other's sessions), so the
 * tokens opened on it share it and the last one closed finalises it.
 */
const libraries = new Map<string, { api: Pkcs11Api; users: number }>();

function library(ck: Pkcs11Module, path: string): Pkcs11Api {
  const known = libraries.get(path);
  if (known) {
    known.users++;
    return known.api;
  }
  const api = new ck.PKCS11();
  try {
    api.load(path);
  } catch (e) {
    throw new KeyProviderStartError('PKCS11_MODULE', `the PKCS#11 library ${path} could not be loaded (${(e as Error).message})`, { cause: e });
  }
  try {
    // Signatures run on the binding's worker threads at once: the library must lock (without the flag SoftHSM2 does not).
    api.C_Initialize({ flags: ck.CKF_OS_LOCKING_OK! });
  } catch (e) {
    if (ckrOf(e) !== ck.CKR_CRYPTOKI_ALREADY_INITIALIZED)
      throw new KeyProviderStartError('PKCS11_MODULE', `the PKCS#11 library did not initialise (${(e as Error).message})`, { cause: e });
  }
  libraries.set(path, { api, users: 1 });
  return api;
}

function unload(path: string): void {
  const known = libraries.get(path);
  if (!known || --known.users > 0) return;
  libraries.delete(path);
  known.api.C_Finalize();
}

/** Opens the token, or throws a KeyProviderStartError naming the variable at fault. */
export function openPkcs11Token(o: TokenOptions): Pkcs11Token {
  const loaded = loadPkcs11js();
  if (!loaded)
    throw new KeyProviderStartError(
      'KEY_PROVIDER',
      'pkcs11 needs the optional package pkcs11js, which is not installed or not built here (npm ci on a machine with a C++ compiler and make builds it; its install script is allowed in package.json)',
    );
  const ck: Pkcs11Module = loaded;
  const api = library(ck, o.module);
  const nameOf = (code: number | undefined) => Object.keys(ck).find((k) => k.startsWith('CKR_') && ck[k] === code);
  const findSlot = (): Handle | undefined => api.C_GetSlotList(true).find((s) => api.C_GetTokenInfo(s).label.trim() === o.tokenLabel);
  const size = Math.max(1, o.sessions ?? 4);
  const flags = ck.CKF_SERIAL_SESSION! | ck.CKF_RW_SESSION!;

  let slot: Handle | undefined;
  /** Every session this token opened (another token of the process on the same slot keeps its own). */
  let own: Handle[] = [];
  let free: Handle[] = [];
  let waiting: ((s: Handle) => void)[] = [];
  let broken = false;
  let held = false;
  let gen = 0;

  /** Opens the pool: one login (it holds for every session of this process), then the other sessions. */
  function connect(): void {
    if (held) throw new Error('token held away (test hook)');
    slot = findSlot();
    if (!slot) throw Object.assign(new Error(`no token labelled ${o.tokenLabel}`), { tokenMissing: true });
    closeOwn();
    const first = api.C_OpenSession(slot, flags);
    own.push(first);
    try {
      api.C_Login(first, ck.CKU_USER!, o.pin);
    } catch (e) {
      if (ckrOf(e) !== ck.CKR_USER_ALREADY_LOGGED_IN) throw e;
    }
    const sessions = [first];
    while (sessions.length < size) {
      const next = api.C_OpenSession(slot, flags);
      own.push(next);
      sessions.push(next);
    }
    free = sessions;
    broken = false;
    gen++;
  }

  function closeOwn(): void {
    for (const s of own) {
      try {
        api.C_CloseSession(s);
      } catch {
        // already closed (the token restarted)
      }
    }
    own = [];
  }

  try {
    connect();
  } catch (e) {
    closeOwn();
    unload(o.module);
    if ((e as { tokenMissing?: boolean }).tokenMissing)
      throw new KeyProviderStartError('PKCS11_TOKEN_LABEL', `no token labelled "${o.tokenLabel}" in ${o.module}`);
    if (PIN_ERRORS.includes(nameOf(ckrOf(e)) ?? '')) throw new KeyProviderStartError('PKCS11_PIN', `the token refused the PIN (${nameOf(ckrOf(e))})`);
    throw new KeyProviderStartError('PKCS11_TOKEN_LABEL', `the token could not be opened (${(e as Error).message})`, { cause: e });
  }

  function acquire(): Promise<Handle> {
    if (broken) {
      try {
        connect();
      } catch (e) {
        return Promise.reject(keyProviderUnavailable('pkcs11', e));
      }
    }
    const s = free.pop();
    if (s) return Promise.resolve(s);
    return new Promise((resolve) => waiting.push(resolve));
  }

  function giveBack(s: Handle, generationOf: number): void {
    // A session of a pool since replaced is dropped: its handle died with the reconnect.
    if (generationOf !== gen) return;
    const next = waiting.shift();
    if (next) next(s);
    else free.push(s);
  }

  /** Session-level failures: the pool is opened again before the next call. */
  const lost = new Set(
    [
      'CKR_SESSION_HANDLE_INVALID',
      'CKR_SESSION_CLOSED',
      'CKR_DEVICE_REMOVED',
      'CKR_DEVICE_ERROR',
      'CKR_TOKEN_NOT_PRESENT',
      'CKR_USER_NOT_LOGGED_IN',
      'CKR_GENERAL_ERROR',
      'CKR_CRYPTOKI_NOT_INITIALIZED',
    ].map((n) => ck[n]),
  );

  function markBroken(): void {
    broken = true;
    free = [];
    // Callers waiting for a session try again on a fresh pool.
    const w = waiting;
    waiting = [];
    for (const resolve of w) resolve(Buffer.alloc(0));
  }

  return {
    api,
    ck,
    generation: () => gen,
    async withSession(fn) {
      let session = await acquire();
      // a waiter woken by a broken pool gets an empty handle: it reconnects
      while (session.length === 0) session = await acquire();
      const at = gen;
      try {
        const out = await fn(session);
        giveBack(session, at);
        return out;
      } catch (e) {
        const code = ckrOf(e);
        // Our own refusals pass through; a Cryptoki failure of the session, or a native error of the binding, is the token's.
        if (!isServiceError(e) && (code === undefined || lost.has(code))) {
          markBroken();
          throw keyProviderUnavailable('pkcs11', e);
        }
        giveBack(session, at);
        throw e;
      }
    },
    closeSessions(options) {
      if (options?.hold) held = true;
      if (slot) api.C_CloseAllSessions(slot);
      markBroken();
    },
    release() {
      held = false;
    },
    close() {
      markBroken();
      closeOwn();
      unload(o.module);
    },
  };
}
