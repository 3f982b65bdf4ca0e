/**
 * Records the JSON-RPC HTTP requests this process sends to the devnets while a
 * session is open: viem's http transport looks up the global `fetch` on every
 * request, so wrapping it sees every call the service's chain clients make
 * (one HTTP request may carry a JSON-RPC batch: it is labelled with its methods).
 * Requests to other origins (the service's own HTTP server) are not recorded.
 */
export interface RpcCall {
  /** The JSON-RPC method, or the sorted distinct methods of a batch joined with '+'. */
  label: string;
  start: number;
  end: number;
}

export interface RpcSummary {
  requests: number;
  /** Time with at least one request in flight (union of the intervals), ms. */
  inFlightMs: number;
  /** Per label: HTTP requests and their summed duration, ms. */
  byLabel: Map<string, { count: number; ms: number }>;
}

function methodsOf(body: unknown): string[] {
  if (typeof body !== 'string') return ['?'];
  try {
    const parsed = JSON.parse(body) as { method?: string } | { method?: string }[];
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.map((m) => String(m.method ?? '?'));
  } catch {
    return ['?'];
  }
}

export class RpcTrace {
  private calls: RpcCall[] = [];
  private recording = false;
  private readonly original: typeof fetch;
  private readonly origins: Set<string>;

  constructor(rpcUrls: readonly string[]) {
    this.origins = new Set(rpcUrls.map((u) => new URL(u).origin));
    this.original = globalThis.fetch;
    const original = this.original;
    globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      let origin: string | undefined;
      try {
        origin = new URL(url).origin;
      } catch {
        origin = undefined;
      }
      if (!this.recording || origin === undefined || !this.origins.has(origin)) return original(input, init);
      const label = [...new Set(methodsOf(init?.body))].sort().join('+');
      const start = performance.now();
      try {
        const res = await original(input, init);
        // the transport reads the body next; the round trip ends when the answer is fully read
        const text = await res.text();
        this.calls.push({ label, start, end: performance.now() });
        return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
      } catch (e) {
        this.calls.push({ label: `${label} (error)`, start, end: performance.now() });
        throw e;
      }
    };
  }

  start(): void {
    this.calls = [];
    this.recording = true;
  }

  stop(): RpcCall[] {
    this.recording = false;
    const out = this.calls;
    this.calls = [];
    return out;
  }

  /** Puts the original fetch back. */
  uninstall(): void {
    this.recording = false;
    globalThis.fetch = this.original;
  }
}

export function summarize(calls: readonly RpcCall[]): RpcSummary {
  const byLabel = new Map<string, { count: number; ms: number }>();
  for (const c of calls) {
    const e = byLabel.get(c.label) ?? { count: 0, ms: 0 };
    e.count++;
    e.ms += c.end - c.start;
    byLabel.set(c.label, e);
  }
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  let inFlightMs = 0;
  let curStart = -Infinity;
  let curEnd = -Infinity;
  for (const c of sorted) {
    if (c.start > curEnd) {
      if (curEnd > curStart) inFlightMs += curEnd - curStart;
      curStart = c.start;
      curEnd = c.end;
    } else if (c.end > curEnd) {
      curEnd = c.end;
    }
  }
  if (curEnd > curStart) inFlightMs += curEnd - curStart;
  return { requests: calls.length, inFlightMs, byLabel };
}
