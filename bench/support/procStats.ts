/** CPU time and RSS of this process's descendants (the devnet nodes), read from Linux /proc. */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times and the page size of its RSS (Linux x86-64 / arm64 defaults). */
const TICKS_PER_S = 100;
const PAGE_BYTES = 4096;

interface ProcStat {
  pid: number;
  ppid: number;
  cpuMs: number;
  rssBytes: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name may hold spaces: fields start after its closing parenthesis
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      pid,
      ppid: Number(f[1]),
      cpuMs: ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_S,
      rssBytes: Number(f[21]) * PAGE_BYTES,
    };
  } catch {
    return null;
  }
}

/** Every live descendant of `root` (default: this process). Empty where /proc is missing. */
export function descendants(root = process.pid): ProcStat[] {
  let all: ProcStat[];
  try {
    all = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map((d) => readStat(Number(d)))
      .filter((s): s is ProcStat => s !== null);
  } catch {
    return [];
  }
  const out: ProcStat[] = [];
  const parents = new Set([root]);
  // parents may be listed after their children: repeat until no new descendant appears (bounded by the process count)
  for (let changed = true, rounds = 0; changed && rounds < all.length; rounds++) {
    changed = false;
    for (const s of all) {
      if (parents.has(s.ppid) && !parents.has(s.pid)) {
        parents.add(s.pid);
        out.push(s);
        changed = true;
      }
    }
  }
  return out;
}

/** Summed CPU ms and RSS bytes of `procs` as they are now (processes gone meanwhile count 0). */
export function totals(pids: readonly number[]): { cpuMs: number; rssBytes: number; alive: number } {
  let cpuMs = 0;
  let rssBytes = 0;
  let alive = 0;
  for (const pid of pids) {
    const s = readStat(pid);
    if (s === null) continue;
    alive++;
    cpuMs += s.cpuMs;
    rssBytes += s.rssBytes;
  }
  return { cpuMs, rssBytes, alive };
}

/** Prints how many of the devnet processes `pids` are still running after a bench stopped the service, and fails when any is. */
export function assertDevnetsStopped(pids: readonly number[]): void {
  const left = totals(pids).alive;
  console.log(`devnet processes left after stop: ${left}`);
  if (left > 0) throw new Error(`${left} devnet processes still running`);
}
