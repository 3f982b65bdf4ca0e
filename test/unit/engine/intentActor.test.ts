import type { Intent } from '../../../src/domain/intent';
import { deferred } from './deferred';
import { createHarness, usdc } from './engineHarness';

describe('engine: intent actor', () => {
  test('behavior: every transition is persisted before it is published; subscribers see versions 1, 2, 3, … in order', async () => {
    const h = createHarness();
    const log: string[] = [];
    const repo = h.store.intents;
    const update = repo.update.bind(repo);
    repo.update = async (intent, expected) => {
      await update(intent, expected);
      log.push(`persist ${intent.id}@${intent.version}`);
    };
    const published: Intent[] = [];
    const storedAtPublish: Promise<Intent | null>[] = [];
    h.engine.bus.listen('all', (i) => {
      log.push(`publish ${i.id}@${i.version}`);
      published.push(i);
      storedAtPublish.push(repo.get(i.id));
    });

    const w = await h.wallet();
    h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('10'));
    const intent = await h.submit(w.id, { amount: '10' });
    await h.settled(intent.id);
    await h.engine.stop();

    expect(published.map((i) => i.version)).toEqual(published.map((_, n) => n + 1));
    expect(published.map((i) => i.status)).toEqual(expect.arrayContaining(['planning', 'executing', 'completed']));
    for (const [n, i] of published.entries()) {
      expect(log.indexOf(`persist ${i.id}@${i.version}`)).toBeLessThan(log.indexOf(`publish ${i.id}@${i.version}`));
      expect(log.indexOf(`persist ${i.id}@${i.version}`)).toBeGreaterThan(-1);
      expect((await storedAtPublish[n])?.version).toBeGreaterThanOrEqual(i.version);
    }
  });

  test('behavior: a VERSION_CONFLICT (another writer moved the intent on) stops the actor without overwriting or failing the intent', async () => {
    const h = createHarness();
    const w = await h.wallet();
    h.chain.fund('base-sepolia', w.address, 'USDC', usdc('10'));
    const gate = deferred();
    h.chain.beforeBroadcast = async (s) => {
      if (s.kind === 'supply') await gate.promise;
    };
    const intent = await h.submit(w.id, { amount: '10' });
    await new Promise<void>((resolve) => {
      const off = h.engine.bus.listen({ intentId: intent.id }, (i) => {
        if ((i.results?.transactions.length ?? 0) < 2) return;
        off();
        resolve();
      });
    });
    const other = await h.store.intents.get(intent.id);
    const theirs = { ...other!, version: other!.version + 1, updatedAt: '2030-01-01T00:00:00.000Z' };
    await h.store.intents.update(theirs, other!.version);
    const later = h.submit(w.id, { amount: '1' });
    gate.resolve();

    // the wallet moves on to its next intent once the superseded actor lets go
    const next = await later;
    await h.settled(next.id);
    expect(await h.store.intents.get(intent.id)).toEqual(theirs);
    await h.engine.stop();
  });
});
