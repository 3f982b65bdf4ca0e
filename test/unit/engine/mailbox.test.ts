import { Mailbox } from '../../../src/engine/actors/mailbox';
import { deferred, flush } from './deferred';

describe('Mailbox', () => {
  test('behavior: processes messages in FIFO order', async () => {
    const seen: number[] = [];
    const box = new Mailbox<number>(
      (n) => void seen.push(n),
      () => undefined,
    );
    for (let i = 0; i < 100; i++) box.enqueue(i);
    await box.idle();
    expect(seen).toEqual([...Array(100).keys()]);
  });

  test('behavior: handles one message at a time under concurrent enqueues', async () => {
    let running = 0;
    let maxRunning = 0;
    const order: string[] = [];
    const box = new Mailbox<string>(
      async (m) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        order.push(`start ${m}`);
        await new Promise((r) => setTimeout(r, m.length % 3));
        await Promise.resolve();
        order.push(`end ${m}`);
        running--;
      },
      () => undefined,
    );
    await Promise.all(['a', 'bb', 'ccc', 'dddd', 'e'].map(async (m) => box.enqueue(m)));
    await box.idle();
    expect(maxRunning).toBe(1);
    expect(order).toEqual(['a', 'bb', 'ccc', 'dddd', 'e'].flatMap((m) => [`start ${m}`, `end ${m}`]));
  });

  test('behavior: never runs a handler inside enqueue', async () => {
    const seen: string[] = [];
    const box = new Mailbox<string>(
      (m) => void seen.push(m),
      () => undefined,
    );
    box.enqueue('x');
    expect(seen).toEqual([]);
    expect(box.busy).toBe(true);
    await box.idle();
    expect(seen).toEqual(['x']);
    expect(box.busy).toBe(false);
  });

  test('behavior: a message enqueued by the handler runs after the current one, not inside it', async () => {
    const log: string[] = [];
    const box: Mailbox<string> = new Mailbox<string>(
      (m) => {
        log.push(`in ${m}`);
        if (m === 'first') box.enqueue('second');
        log.push(`out ${m}`);
      },
      () => undefined,
    );
    box.enqueue('first');
    await box.idle();
    expect(log).toEqual(['in first', 'out first', 'in second', 'out second']);
  });

  test('behavior: a throwing handler is reported and the mailbox carries on', async () => {
    const seen: number[] = [];
    const errors: [string, number][] = [];
    const box = new Mailbox<number>(
      async (n) => {
        if (n === 2) throw new Error('boom');
        seen.push(n);
      },
      (error, message) => errors.push([(error as Error).message, message]),
    );
    [1, 2, 3].forEach((n) => box.enqueue(n));
    await box.idle();
    expect(seen).toEqual([1, 3]);
    expect(errors).toEqual([['boom', 2]]);
  });

  test('behavior: a reporter that throws does not stall the queue', async () => {
    const seen: number[] = [];
    const box = new Mailbox<number>(
      (n) => {
        if (n === 1) throw new Error('boom');
        seen.push(n);
      },
      () => {
        throw new Error('reporter down');
      },
    );
    [1, 2].forEach((n) => box.enqueue(n));
    await box.idle();
    expect(seen).toEqual([2]);
  });

  test('behavior: close refuses new messages but finishes the queued ones', async () => {
    const gate = deferred();
    const seen: number[] = [];
    const box = new Mailbox<number>(
      async (n) => {
        if (n === 1) await gate.promise;
        seen.push(n);
      },
      () => undefined,
    );
    box.enqueue(1);
    box.enqueue(2);
    await flush();
    box.close();
    expect(box.enqueue(3)).toBe(false);
    expect(box.size).toBe(1);
    gate.resolve();
    await box.idle();
    expect(seen).toEqual([1, 2]);
  });
});
