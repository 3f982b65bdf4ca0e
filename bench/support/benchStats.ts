/** Small helpers shared by the engine benchmarks: percentiles, an RSS sampler, a forced GC between phases. */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The `p`-th percentile of ascending `sorted` (nearest rank, as bench/chainReads.ts). */
export function pct(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** p50 / p99 / max of `samples` (ms). */
export function summary(samples: readonly number[]): { p50: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: pct(sorted, 50), p99: pct(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
}

export const MiB = 1024 * 1024;

/** Samples process.memoryUsage().rss every `everyMs` until stopped; keeps the peak. */
export class RssSampler {
  readonly startRss: number;
  private peakRss: number;
  private samples = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(everyMs = 50) {
    this.startRss = process.memoryUsage().rss;
    this.peakRss = this.startRss;
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  private sample(): void {
    this.samples++;
    const rss = process.memoryUsage().rss;
    if (rss > this.peakRss) this.peakRss = rss;
  }

  /** Takes a last sample and stops the timer. */
  stop(): { startMiB: number; peakMiB: number; samples: number } {
    this.sample();
    clearInterval(this.timer);
    return { startMiB: this.startRss / MiB, peakMiB: this.peakRss / MiB, samples: this.samples };
  }
}

let gcFn: (() => void) | undefined;

/** A full GC, so each phase starts from a comparable heap (works without --expose-gc). */
export function forceGc(): void {
  if (gcFn === undefined) {
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
}

/** ms with 2 decimals, thousands separated. */
export const ms = (n: number): string => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** A whole number, thousands separated. */
export const int = (n: number): string => Math.round(n).toLocaleString('en-US');

/**
 * A liveness probe of this process while it works: a tiny HTTP server with a
 * /healthz route in this process, polled by a child process (its own event
 * loop, so the poller is never delayed by ours) over a new connection per
 * request, every `everyMs`, as a load balancer or kubelet probe would. The
 * latency measured is how long this process's event loop takes to answer.
 */
export class HealthProbe {
  private constructor(
    private readonly server: import('node:http').Server,
    private readonly child: import('node:child_process').ChildProcess,
  ) {}

  static async start(everyMs = 10): Promise<HealthProbe> {
    const { createServer } = await import('node:http');
    const { spawn } = await import('node:child_process');
    const server = createServer((req, res) => {
      if (req.url === '/healthz') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":"ok"}');
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    const poller = `
      const http = require('node:http');
      const { performance } = require('node:perf_hooks');
      const samples = [];
      let stopped = false;
      const probe = () => {
        if (stopped) return;
        const t0 = performance.now();
        http.get({ host: '127.0.0.1', port: ${port}, path: '/healthz', agent: false }, (res) => {
          res.resume();
          res.on('end', () => { samples.push(performance.now() - t0); setTimeout(probe, ${everyMs}); });
        }).on('error', () => setTimeout(probe, ${everyMs}));
      };
      process.on('message', (m) => {
        if (m === 'start') { probe(); process.send('started'); }
        if (m === 'stop') { stopped = true; process.send(samples, () => process.exit(0)); }
      });
      process.send('ready');`;
    const child = spawn(process.execPath, ['-e', poller], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((resolve) => child.once('message', () => resolve()));
    child.send('start');
    await new Promise<void>((resolve) => child.once('message', () => resolve()));
    return new HealthProbe(server, child);
  }

  /** Stops polling; resolves with every answer's latency (ms), in order. */
  async stop(): Promise<number[]> {
    const samples = new Promise<number[]>((resolve) => this.child.once('message', (m) => resolve(m as number[])));
    this.child.send('stop');
    const out = await samples;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    return out;
  }
}

/**
 * The longest turn of the event loop with the time the OS did not run this
 * process left out: a setImmediate chain reads the wall clock and the
 * process's CPU time once per turn; a turn's length is the smaller of its
 * wall time and its CPU time (on a loaded machine a turn's wall time counts
 * the waits for a core; its CPU time counts GC helper threads too, so the
 * smaller of the two is the closer to the work the turn ran).
 */
export class TurnMeter {
  maxWallMs = 0;
  maxCpuBoundMs = 0;
  private lastWall = performance.now();
  private lastCpu = cpuMs();
  private stopped = false;

  constructor() {
    setImmediate(this.tick);
  }

  private tick = (): void => {
    const wall = performance.now();
    const cpu = cpuMs();
    const dWall = wall - this.lastWall;
    this.maxWallMs = Math.max(this.maxWallMs, dWall);
    this.maxCpuBoundMs = Math.max(this.maxCpuBoundMs, Math.min(dWall, cpu - this.lastCpu));
    this.lastWall = wall;
    this.lastCpu = cpu;
    if (!this.stopped) setImmediate(this.tick);
  };

  stop(): { maxWallMs: number; maxCpuBoundMs: number } {
    this.stopped = true;
    return { maxWallMs: this.maxWallMs, maxCpuBoundMs: this.maxCpuBoundMs };
  }
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
