import { SimulatedClock } from '../../../src/domain/clock';
import { ServiceError } from '../../../src/domain/errors/base';
import { createActorSystem, type Behavior } from '../../../src/engine/actors/runtime';
import { deferred, flush } from './deferred';

type Msg = { type: 'add'; n: number } | { type: 'boom' } | { type: 'wait'; gate: Promise<void> };

const counter: Behavior<number, Msg> = async (state, msg) => {
  if (msg.type === 'boom') throw new Error('behavior failed');
  if (msg.type === 'wait') await msg.gate;
  return msg.type === 'add' ? state + msg.n : state;
};

const noErrors = (): void => {
  throw new Error('unexpected unhandled actor error');
};

describe('actor runtime', () => {
  test('behavior: state threads through messages in order and is visible as a snapshot', async () => {
    const system = createActorSystem<Msg>({ onError: noErrors });
    const log: number[] = [];
    const ref = system.spawn(
      'c',
      async (state: number[], msg) => {
        if (msg.type === 'add') log.push(msg.n);
        return msg.type === 'add' ? [...state, msg.n] : state;
      },
      [],
    );
    for (let n = 1; n <= 5; n++) system.tell('c', { type: 'add', n });
    await system.stopAll();
    expect(ref.getSnapshot()).toEqual([1, 2, 3, 4, 5]);
    expect(log).toEqual([1, 2, 3, 4, 5]);
  });

  test('behavior: one message at a time per actor under concurrent tells, actors progress independently', async () => {
    const system = createActorSystem<Msg>({ onError: noErrors });
    let inA = 0;
    let maxInA = 0;
    const events: string[] = [];
    system.spawn(
      'a',
      async (state: number, msg) => {
        inA++;
        maxInA = Math.max(maxInA, inA);
        if (msg.type === 'wait') await msg.gate;
        events.push(`a:${msg.type}`);
        inA--;
        return state + 1;
      },
      0,
    );
    const b = system.spawn('b', counter, 0);
    const gate = deferred();

    await Promise.all([
      Promise.resolve().then(() => system.tell('a', { type: 'wait', gate: gate.promise })),
      ...[1, 2, 3].map((n) => Promise.resolve().then(() => system.tell('a', { type: 'add', n }))),
      Promise.resolve().then(() => system.tell('b', { type: 'add', n: 10 })),
    ]);
    await flush();
    // 'a' is stuck on its first message; 'b' is not held up by it.
    expect(b.getSnapshot()).toBe(10);
    expect(events).toEqual([]);
    gate.resolve();
    await system.stopAll();
    expect(maxInA).toBe(1);
    expect(events).toEqual(['a:wait', 'a:add', 'a:add', 'a:add']);
  });

  test('behavior: ctx.self queues behind messages already waiting', async () => {
    const system = createActorSystem<{ tag: string; echo?: boolean }>({ onError: noErrors });
    const ref = system.spawn(
      's',
      (state: string[], msg, ctx) => {
        if (msg.echo) ctx.self({ tag: `${msg.tag}-echo` });
        return [...state, msg.tag];
      },
      [],
    );
    system.tell('s', { tag: 'one', echo: true });
    system.tell('s', { tag: 'two' });
    await flush();
    expect(ref.getSnapshot()).toEqual(['one', 'two', 'one-echo']);
    await system.stopAll();
  });

  test('behavior: a thrown error goes to the supervisor, whose state is kept, and the actor carries on', async () => {
    const unhandled = jest.fn();
    const system = createActorSystem<Msg>({ onError: unhandled });
    type S = { total: number; failed?: string };
    const ref = system.spawn(
      'sup',
      async (state: S, msg, ctx) => ({ total: await counter(state.total, msg, ctx) }),
      { total: 0 },
      { supervise: (error, state) => ({ ...state, failed: (error as Error).message }) },
    );
    system.tell('sup', { type: 'add', n: 1 });
    system.tell('sup', { type: 'boom' });
    await flush();
    expect(ref.getSnapshot()).toEqual({ total: 1, failed: 'behavior failed' });
    system.tell('sup', { type: 'add', n: 2 });
    await system.stopAll();
    expect(ref.getSnapshot()).toEqual({ total: 3 });
    expect(unhandled).not.toHaveBeenCalled();
  });

  test('behavior: without a supervisor the error reaches onError with the actor and message; state is unchanged', async () => {
    const unhandled = jest.fn();
    const system = createActorSystem<Msg>({ onError: unhandled });
    const ref = system.spawn('x', counter, 5);
    system.tell('x', { type: 'boom' });
    system.tell('x', { type: 'add', n: 1 });
    await system.stopAll();
    expect(ref.getSnapshot()).toBe(6);
    expect(unhandled).toHaveBeenCalledTimes(1);
    expect(unhandled).toHaveBeenCalledWith(expect.objectContaining({ message: 'behavior failed' }), { actorId: 'x', message: { type: 'boom' } });
  });

  test('behavior: a supervisor that throws is reported to onError and the actor survives', async () => {
    const unhandled = jest.fn();
    const system = createActorSystem<Msg>({ onError: unhandled });
    const ref = system.spawn('y', counter, 0, {
      supervise: () => {
        throw new Error('supervisor failed');
      },
    });
    system.tell('y', { type: 'boom' });
    system.tell('y', { type: 'add', n: 4 });
    await system.stopAll();
    expect(ref.getSnapshot()).toBe(4);
    expect(unhandled).toHaveBeenCalledWith(expect.objectContaining({ message: 'supervisor failed' }), expect.objectContaining({ actorId: 'y' }));
  });

  test('behavior: an idle actor is stopped after idleMs on the simulated clock; a message restarts the wait', async () => {
    const clock = new SimulatedClock(0);
    const system = createActorSystem<Msg>({ onError: noErrors, idleMs: 1000, clock });
    system.spawn('idle', counter, 0);
    system.spawn('busy', counter, 0, { idleMs: 5000 });
    expect(system.size()).toBe(2);

    clock.advance(900);
    system.tell('idle', { type: 'add', n: 1 });
    await flush();
    clock.advance(900);
    expect(system.has('idle')).toBe(true);
    clock.advance(100);
    expect(system.has('idle')).toBe(false);
    expect(system.tell('idle', { type: 'add', n: 1 })).toBe(false);
    expect(system.size()).toBe(1);

    clock.advance(3100);
    expect(system.has('busy')).toBe(false);
    expect(system.size()).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });

  test('behavior: an actor with a handler in flight is not idle-stopped', async () => {
    const clock = new SimulatedClock(0);
    const system = createActorSystem<Msg>({ onError: noErrors, idleMs: 1000, clock });
    const gate = deferred();
    const ref = system.spawn('slow', counter, 0);
    system.tell('slow', { type: 'wait', gate: gate.promise });
    await flush();
    clock.advance(10_000);
    expect(system.has('slow')).toBe(true);
    gate.resolve();
    await flush();
    ref.tell({ type: 'add', n: 2 });
    await flush();
    expect(ref.getSnapshot()).toBe(2);
    clock.advance(1000);
    expect(system.has('slow')).toBe(false);
  });

  test('behavior: stop lets queued messages finish, refuses new ones and aborts the signal', async () => {
    const system = createActorSystem<Msg>({ onError: noErrors });
    const gate = deferred();
    let signal: AbortSignal | undefined;
    const ref = system.spawn(
      's',
      async (state: number, msg, ctx) => {
        signal = ctx.signal;
        return counter(state, msg, ctx);
      },
      0,
    );
    ref.tell({ type: 'wait', gate: gate.promise });
    ref.tell({ type: 'add', n: 1 });
    await flush();
    const stopped = system.stop('s');
    expect(ref.tell({ type: 'add', n: 100 })).toBe(false);
    expect(signal?.aborted).toBe(true);
    expect(system.has('s')).toBe(true);
    gate.resolve();
    await stopped;
    expect(ref.getSnapshot()).toBe(1);
    expect(system.has('s')).toBe(false);
  });

  test('behavior: stopAll awaits in-flight handlers of every actor', async () => {
    const system = createActorSystem<Msg>({ onError: noErrors });
    const gates = [deferred(), deferred()];
    const refs = gates.map((g, i) => {
      const ref = system.spawn(`a${i}`, counter, 0);
      ref.tell({ type: 'wait', gate: g.promise });
      ref.tell({ type: 'add', n: i + 1 });
      return ref;
    });
    await flush();
    let done = false;
    const all = system.stopAll().then(() => {
      done = true;
    });
    await flush();
    expect(done).toBe(false);
    gates.forEach((g) => g.resolve());
    await all;
    expect(refs.map((r) => r.getSnapshot())).toEqual([1, 2]);
    expect(system.size()).toBe(0);
  });

  test('behavior: a stale ref does not reach a new actor spawned under the same id', async () => {
    const system = createActorSystem<Msg>({ onError: noErrors });
    const old = system.spawn('same', counter, 0);
    await system.stop('same');
    const fresh = system.spawn('same', counter, 100);
    expect(old.tell({ type: 'add', n: 1 })).toBe(false);
    expect(system.tell('same', { type: 'add', n: 1 })).toBe(true);
    await system.stopAll();
    expect(fresh.getSnapshot()).toBe(101);
  });

  test('error: spawning an id that is already running throws INTERNAL_ERROR', () => {
    const system = createActorSystem<Msg>({ onError: noErrors });
    system.spawn('dup', counter, 0);
    expect(() => system.spawn('dup', counter, 0)).toThrow(ServiceError);
    expect(() => system.spawn('dup', counter, 0)).toThrow(expect.objectContaining({ code: 'INTERNAL_ERROR', details: { actorId: 'dup' } }));
  });

  test('error: telling an unknown actor returns false', () => {
    const system = createActorSystem<Msg>({ onError: noErrors });
    expect(system.tell('nobody', { type: 'add', n: 1 })).toBe(false);
  });
});
