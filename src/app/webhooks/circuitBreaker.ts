/**
 * A circuit breaker per webhook endpoint (this instance's view): after
 * `threshold` failed attempts in a row the circuit opens and the endpoint's
 * deliveries are held, not sent, for a cool-down; then one delivery goes as a
 * probe (half-open). The probe's success closes the circuit; its failure opens
 * it again for twice as long, up to `maxCooldownMs`. A dead endpoint so costs
 * the worker one attempt per cool-down instead of one per delivery.
 */

export interface CircuitBreakerOptions {
  /** Failed attempts in a row that open the circuit. */
  threshold: number;
  /** The first cool-down; each failed probe doubles it. */
  cooldownMs: number;
  /** The longest cool-down. */
  maxCooldownMs: number;
}

/** Where one endpoint's circuit stands. */
export type CircuitState =
  { state: 'closed'; failures: number } | { state: 'open'; until: number; cooldownMs: number } | { state: 'half-open'; cooldownMs: number; probing: boolean };

/** What to do with a delivery claimed for an endpoint: send it, or hold it until `until` (ms), or (null) until the probe in flight has answered. */
export type CircuitDecision = { send: true } | { send: false; until: number | null };

/** Told when a circuit changes state (logs, tests); must not throw. */
export type CircuitListener = (endpointId: string, state: CircuitState['state']) => void;

export interface CircuitBreaker {
  /** Whether a delivery to `endpointId` may be sent now; a half-open circuit lets exactly one probe through. */
  admit(endpointId: string, nowMs: number): CircuitDecision;
  /** An attempt's outcome (a 2xx or not); attempts not made (the worker stopping) are not recorded. */
  record(endpointId: string, ok: boolean, nowMs: number): void;
  /** A probe let through but never sent (the endpoint was gone, the attempt broke first): the next delivery may probe instead. */
  abandon(endpointId: string): void;
  /** Endpoints whose deliveries no claim should take now: a probe is in flight. */
  probing(): string[];
  state(endpointId: string): CircuitState;
}

export function createCircuitBreaker(o: CircuitBreakerOptions, onChange?: CircuitListener): CircuitBreaker {
  // Only endpoints with failures (or an open circuit) are kept: a healthy endpoint has no entry.
  const circuits = new Map<string, CircuitState>();
  const set = (id: string, c: CircuitState) => {
    const before = circuits.get(id)?.state ?? 'closed';
    if (c.state === 'closed' && c.failures === 0) circuits.delete(id);
    else circuits.set(id, c);
    if (before !== c.state) onChange?.(id, c.state);
  };
  const open = (id: string, cooldownMs: number, nowMs: number) => set(id, { state: 'open', until: nowMs + cooldownMs, cooldownMs });

  return {
    admit(id, nowMs) {
      const c = circuits.get(id);
      if (!c || c.state === 'closed') return { send: true };
      if (c.state === 'open') {
        if (nowMs < c.until) return { send: false, until: c.until };
        set(id, { state: 'half-open', cooldownMs: c.cooldownMs, probing: true });
        return { send: true };
      }
      if (c.probing) return { send: false, until: null };
      c.probing = true;
      return { send: true };
    },
    record(id, ok, nowMs) {
      const c = circuits.get(id) ?? { state: 'closed' as const, failures: 0 };
      if (ok) return set(id, { state: 'closed', failures: 0 });
      if (c.state === 'half-open') return open(id, Math.min(c.cooldownMs * 2, o.maxCooldownMs), nowMs);
      // an attempt that started before the circuit opened and failed after: the circuit stays as it is
      if (c.state === 'open') return;
      const failures = c.failures + 1;
      if (failures >= o.threshold) open(id, o.cooldownMs, nowMs);
      else set(id, { state: 'closed', failures });
    },
    abandon(id) {
      const c = circuits.get(id);
      if (c?.state === 'half-open') c.probing = false;
    },
    probing: () => [...circuits].flatMap(([id, c]) => (c.state === 'half-open' && c.probing ? [id] : [])),
    state: (id) => circuits.get(id) ?? { state: 'closed', failures: 0 },
  };
}
