/**
 * Records the JSON-RPC HTTP requests this process sends to the devnets while a
 * session is open: viem's http transport looks up the global `fetch` on every
 * request, so wrapping it sees every call the service's chain clients make
 * (one HTTP request may carry a JSON-RPC batch: it is labelled with its methods).
 * Requests to other origins (the service's own HTTP server) are not recorded,
 * but for the attestation service's message polls when its URL is given: they
 * are kept apart (`attestationMs`), not among the JSON-RPC requests.
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
  /** From the first attestation poll's start to the last one's answer (the wait for the attestation), ms; 0 without polls. */
  attestationMs: number;
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
  private origins = new Set<string>();
  private attestationOrigin: string | undefined;
  private polls: RpcCall[] = [];

  /** Installed before the service starts: clients that keep the `fetch` they were made with are seen too. */
  constructor() {
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
      if (this.recording && origin !== undefined && origin === this.attestationOrigin && url.includes('/v2/messages/')) {
        const start = performance.now();
        const res = await original(input, init);
        const text = await res.text();
        this.polls.push({ label: 'attestation poll', start, end: performance.now() });
        return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
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

  /** The devnets' RPC URLs whose requests are recorded, and the attestation service whose message polls are. */
  watch(rpcUrls: readonly string[], attestationUrl?: string): void {
    this.origins = new Set(rpcUrls.map((u) => new URL(u).origin));
    this.attestationOrigin = attestationUrl === undefined ? undefined : new URL(attestationUrl).origin;
  }

  start(): void {
    this.calls = [];
    this.polls = [];
    this.recording = true;
  }

  /** The JSON-RPC requests of the session, and the attestation polls apart. */
  stop(): { calls: RpcCall[]; polls: RpcCall[] } {
    this.recording = false;
    const out = { calls: this.calls, polls: this.polls };
    this.calls = [];
    this.polls = [];
    return out;
  }

  /** Puts the original fetch back. */
  uninstall(): void {
    this.recording = false;
    globalThis.fetch = this.original;
  }
}

export function summarize({ calls, polls }: { calls: readonly RpcCall[]; polls: readonly RpcCall[] }): RpcSummary {
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
  const attestationMs = polls.length === 0 ? 0 : Math.max(...polls.map((c) => c.end)) - Math.min(...polls.map((c) => c.start));
  return { requests: calls.length, inFlightMs, byLabel, attestationMs };
}
