import { describeOnMongo } from './mongoHarness';
import type { Store } from '../../src/ports/store';
import { assertRequired, MissingCapabilityError } from '../../src/store/mongo/capabilities';

describeOnMongo('capability probe', (name, makeStore) => {
  describe(`capabilities: ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(() => store?.close());

    test('behavior: the store probed its server at start: the required capabilities are present, the optional ones reported', () => {
      const caps = store.capabilities!;
      expect(caps).toMatchObject({ uniqueIndexes: true, conditionalUpdates: true });
      for (const k of ['transactions', 'changeStreams', 'ttlIndexes', 'serverClock'] as const) expect(typeof caps[k]).toBe('boolean');
      console.log(`store capabilities (${name}): ${JSON.stringify(caps)}`);
    });
  });
});

test('error: a server without a required capability is refused in one line naming it', () => {
  const all = { uniqueIndexes: true, conditionalUpdates: true, transactions: false, changeStreams: false, ttlIndexes: false, serverClock: false };
  expect(() => assertRequired(all)).not.toThrow();
  let thrown: unknown;
  try {
    assertRequired({ ...all, uniqueIndexes: false });
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(MissingCapabilityError);
  expect((thrown as Error).message).toMatch(/^The MongoDB server lacks what the service needs: unique indexes/);
  expect((thrown as Error).message).not.toContain('\n');
});
