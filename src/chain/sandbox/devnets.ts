import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Hex } from 'viem';
import { CHAINS, type ChainName } from '../../domain/chains';
import { SANDBOX_KEYS, SANDBOX_NATIVE_BALANCE_WEI } from './accounts';
import { DEVNET_PRELOAD_JS } from './devnetPreload';

/** An account a devnet funds at genesis. */
export interface FundedAccount {
  privateKey: Hex;
  balanceWei: bigint;
}

/** Options of startDevnets. */
export interface DevnetOptions {
  chains: readonly ChainName[];
  /** Interval mining every `blockTimeMs` ms instead of one block per transaction: one time for every chain, or per chain (a chain not listed automines). */
  blockTimeMs?: number | Partial<Record<ChainName, number>>;
  /** Chain i listens on basePort + i; default: port 0, so the OS picks and the node reports what it got. */
  basePort?: number;
  /** Default: the four sandbox accounts with SANDBOX_NATIVE_BALANCE_WEI each. */
  accounts?: readonly FundedAccount[];
  /** Give up waiting for a node to answer after this long (default 60 s). */
  readyTimeoutMs?: number;
  /** Address the nodes listen on (default 127.0.0.1); `0.0.0.0` serves other machines, e.g. other containers. */
  host?: string;
}

/** JSON-RPC endpoint of one devnet. */
export interface DevnetChain {
  chainId: number;
  rpcUrl: string;
}

/** Running devnets; stop() ends them and removes their temp directory. */
export interface Devnets {
  chains: Partial<Record<ChainName, DevnetChain>>;
  /** Wall time from spawn to every node answering eth_chainId. */
  startupMs: number;
  /** Kills one node outright (SIGKILL, as a crash would): its port stops answering. Resolves once it has exited. */
  kill(chain: ChainName): Promise<void>;
  /**
   * Starts a killed (or running: it is killed first) node again on the same
   * port, with the same chain id and funded accounts, and EMPTY state: a
   * Hardhat node keeps nothing across a restart. Resolves once it answers.
   */
  restart(chain: ChainName): Promise<void>;
  stop(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';
const POLL_MS = 50;
const TAIL_CHARS = 4000;

/**
 * Hardhat prints this once its server is bound, with the address it got:
 * nodes are started on port 0 and report their own port, so no port is ever
 * picked as free and then lost to another process before the node binds it.
 */
const STARTED_BANNER = /Started HTTP and WebSocket JSON-RPC server at (http:\/\/[^\s/]+)/;

interface Node {
  name: ChainName;
  chainId: number;
  child: ChildProcess;
  output: NodeOutput;
  configPath: string;
}

interface NodeOutput {
  tail: string;
  /** The URL the node reported once bound. */
  url?: string;
}

/** Start one Hardhat (EDR) node per chain as a child process on 127.0.0.1 (or `options.host`) with the chain's real id. */
export async function startDevnets(options: DevnetOptions): Promise<Devnets> {
  const started = Date.now();
  const host = options.host ?? LOOPBACK;
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-devnets-'));
  const preload = join(dir, 'preload.js');
  writeFileSync(preload, DEVNET_PRELOAD_JS);
  const accounts = options.accounts ?? defaultAccounts();
  const nodes: Node[] = [];

  const killAll = (): void => {
    for (const n of nodes) if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGKILL');
  };
  process.once('exit', killAll);

  const timeoutMs = options.readyTimeoutMs ?? 60_000;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await Promise.all(nodes.map((n) => terminate(n.child)));
    process.removeListener('exit', killAll);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    for (const [i, name] of options.chains.entries()) {
      const chainId = CHAINS[name].chainId;
      const port = options.basePort !== undefined ? await assertPortFree(host, options.basePort + i) : 0;
      const configPath = join(dir, `${name}.hardhat.config.js`);
      const blockTimeMs = typeof options.blockTimeMs === 'number' ? options.blockTimeMs : options.blockTimeMs?.[name];
      writeFileSync(configPath, hardhatConfig(chainId, accounts, blockTimeMs));
      const output: NodeOutput = { tail: '' };
      const child = spawnNode(configPath, host, port, preload, output);
      nodes.push({ name, chainId, child, output, configPath });
    }
    await Promise.all(nodes.map((n) => waitReady(n, timeoutMs)));
  } catch (err) {
    await stop();
    throw err;
  }

  const nodeOf = (chain: ChainName): Node => {
    const n = nodes.find((x) => x.name === chain);
    if (!n) throw new Error(`no devnet for ${chain}`);
    return n;
  };
  const kill = async (chain: ChainName): Promise<void> => {
    const { child } = nodeOf(chain);
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  };
  const restart = async (chain: ChainName): Promise<void> => {
    if (stopped) throw new Error('devnets stopped');
    await kill(chain);
    const n = nodeOf(chain);
    const port = Number(new URL(n.output.url!).port);
    const output: NodeOutput = { tail: '' };
    n.child = spawnNode(n.configPath, host, port, preload, output);
    n.output = output;
    await waitReady(n, timeoutMs);
    if (n.output.url !== chains[chain]?.rpcUrl) throw new Error(`devnet ${chain} came back at ${n.output.url}, not ${chains[chain]?.rpcUrl}`);
  };

  const chains: Partial<Record<ChainName, DevnetChain>> = {};
  for (const n of nodes) chains[n.name] = { chainId: n.chainId, rpcUrl: n.output.url! };
  return { chains, startupMs: Date.now() - started, kill, restart, stop };
}

/** Switch a running devnet to interval mining (one block every `blockTimeMs` ms); 0 restores automine. */
export async function setBlockTime(rpcUrl: string, blockTimeMs: number): Promise<void> {
  await rpc(rpcUrl, 'evm_setAutomine', [blockTimeMs === 0]);
  await rpc(rpcUrl, 'evm_setIntervalMining', [blockTimeMs]);
}

function defaultAccounts(): FundedAccount[] {
  return Object.values(SANDBOX_KEYS).map((privateKey) => ({ privateKey, balanceWei: SANDBOX_NATIVE_BALANCE_WEI }));
}

function hardhatConfig(chainId: number, accounts: readonly FundedAccount[], blockTimeMs?: number): string {
  const interval = blockTimeMs !== undefined && blockTimeMs > 0 ? blockTimeMs : 0;
  const config = {
    networks: {
      hardhat: {
        chainId,
        // EIP-7702 (type 4 transactions, delegated accounts), as on the three test networks
        hardfork: 'prague',
        accounts: accounts.map((a) => ({ privateKey: a.privateKey, balance: a.balanceWei.toString() })),
        mining: { auto: interval === 0, interval },
        // A block takes the wall clock's second even when the last block has it already: a busy
        // devnet never runs ahead of real time (payment windows, interest), and it still mines at once.
        allowBlocksWithSameTimestamp: true,
      },
    },
  };
  return `// Generated by src/chain/sandbox/devnets.ts (sandbox only).\nmodule.exports = ${JSON.stringify(config, null, 2)};\n`;
}

function spawnNode(configPath: string, host: string, port: number, preload: string, output: NodeOutput): ChildProcess {
  const hardhatPkg = require.resolve('hardhat/package.json');
  const cli = join(dirname(hardhatPkg), 'internal', 'cli', 'cli.js');
  // Hardhat refuses to run unless the cwd resolves to its local install (HH12): use the project root.
  const projectRoot = dirname(dirname(dirname(hardhatPkg)));
  const child = spawn(process.execPath, ['--require', preload, cli, 'node', '--hostname', host, '--port', String(port), '--config', configPath], {
    cwd: projectRoot,
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const keep = (chunk: Buffer): void => {
    output.tail = (output.tail + chunk.toString('utf8')).slice(-TAIL_CHARS);
    const banner = STARTED_BANNER.exec(output.tail)?.[1];
    output.url ??= banner && reachable(banner);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return child;
}

async function waitReady(node: Node, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (node.child.exitCode !== null || node.child.signalCode !== null) {
      throw new Error(`devnet ${node.name} exited before answering (${node.child.exitCode ?? node.child.signalCode}):\n${node.output.tail}`);
    }
    const url = node.output.url;
    const id = url ? await rpc(url, 'eth_chainId', []).catch(() => undefined) : undefined;
    if (id !== undefined) {
      if (Number(id) === node.chainId) return;
      throw new Error(`devnet ${node.name} at ${url} answered chain id ${String(id)}, expected ${node.chainId}`);
    }
    if (Date.now() > deadline) throw new Error(`devnet ${node.name} not ready after ${timeoutMs} ms:\n${node.output.tail}`);
    await sleep(POLL_MS);
  }
}

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(2000),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method} failed: ${body.error.message}`);
  return body.result;
}

function terminate(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A node bound to every interface reports the wildcard address: this process reaches it on loopback. */
function reachable(url: string): string {
  const u = new URL(url);
  if (u.hostname !== '0.0.0.0' && u.hostname !== '[::]') return url;
  u.hostname = u.hostname === '0.0.0.0' ? LOOPBACK : '[::1]';
  return u.origin;
}

/** Resolve with `port` if nothing listens on it on `host`, else reject. */
async function assertPortFree(host: string, port: number): Promise<number> {
  try {
    return await listenOnce(host, port);
  } catch (err) {
    throw new Error(`devnet port ${host}:${port} is not free`, { cause: err });
  }
}

function listenOnce(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
