import { createCircuitBreaker } from '../../../src/app/webhooks/circuitBreaker';

const options = { threshold: 3, cooldownMs: 1_000, maxCooldownMs: 3_000 };

test('behavior: closed until 3 failures in a row; a success in between starts the count again', () => {
  const b = createCircuitBreaker(options);
  b.record('e', false, 0);
  b.record('e', false, 0);
  b.record('e', true, 0);
  b.record('e', false, 0);
  b.record('e', false, 0);
  expect(b.admit('e', 0)).toEqual({ send: true });
  b.record('e', false, 10);
  expect(b.state('e')).toEqual({ state: 'open', until: 1_010, cooldownMs: 1_000 });
  expect(b.admit('e', 1_009)).toEqual({ send: false, until: 1_010 });
  // another endpoint is not affected
  expect(b.admit('other', 1_009)).toEqual({ send: true });
});

test('behavior: after the cool-down one probe goes (the others wait for it); a failed probe opens the circuit for twice as long, up to the maximum; a good one closes it', () => {
  const changes: string[] = [];
  const b = createCircuitBreaker(options, (_id, state) => changes.push(state));
  for (let i = 0; i < 3; i++) b.record('e', false, 0);
  expect(b.admit('e', 1_000)).toEqual({ send: true });
  expect(b.probing()).toEqual(['e']);
  expect(b.admit('e', 1_000)).toEqual({ send: false, until: null });
  b.record('e', false, 1_500);
  expect(b.state('e')).toEqual({ state: 'open', until: 3_500, cooldownMs: 2_000 });
  expect(b.admit('e', 3_500)).toEqual({ send: true });
  b.record('e', false, 3_600);
  expect(b.state('e')).toMatchObject({ state: 'open', until: 6_600, cooldownMs: 3_000 });
  expect(b.admit('e', 6_600)).toEqual({ send: true });
  b.record('e', true, 6_700);
  expect(b.state('e')).toEqual({ state: 'closed', failures: 0 });
  expect(b.probing()).toEqual([]);
  expect(changes).toEqual(['open', 'half-open', 'open', 'half-open', 'open', 'half-open', 'closed']);
});

test('behavior: a probe let through but never sent is abandoned: the next delivery may probe', () => {
  const b = createCircuitBreaker(options);
  for (let i = 0; i < 3; i++) b.record('e', false, 0);
  expect(b.admit('e', 1_000)).toEqual({ send: true });
  b.abandon('e');
  expect(b.probing()).toEqual([]);
  expect(b.admit('e', 1_000)).toEqual({ send: true });
});
