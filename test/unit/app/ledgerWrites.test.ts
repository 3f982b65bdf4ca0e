import { createLedgerWrites } from '../../../src/app/balances/ledgerWrites';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('ledger writes in flight', () => {
  test('behavior: a read waits for the wallet’s writes in flight, and only for that wallet’s', async () => {
    const writes = createLedgerWrites();
    const order: string[] = [];
    writes.track(
      'w1',
      later(30, null).then(() => order.push('w1 written')),
    );
    writes.track(
      'w2',
      later(200, null).then(() => order.push('w2 written')),
    );
    await writes.settled('w1');
    order.push('w1 read');
    expect(order).toEqual(['w1 written', 'w1 read']);
  });

  test('behavior: a wallet with nothing in flight reads at once; a failed write does not fail the read', async () => {
    const writes = createLedgerWrites();
    writes.track('w1', Promise.reject(new Error('chain down')));
    await expect(writes.settled('w1')).resolves.toBeUndefined();
    await expect(writes.settled('nobody')).resolves.toBeUndefined();
  });

  test('behavior: a write that hangs holds a read for maxWaitMs at most', async () => {
    const writes = createLedgerWrites(50);
    writes.track('w1', new Promise(() => undefined));
    const started = Date.now();
    await writes.settled('w1');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
