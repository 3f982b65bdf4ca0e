import { randomBytes } from 'node:crypto';
import { DuplicateError, type Store } from '../../src/ports/store';
import type { Intent } from '../../src/domain/intent';
import { isServiceError } from '../../src/domain/errors/base';
import { errorStatus } from '../../src/http/errorStatus';

/**
 * The IntentRepo contract of src/ports/store.ts. Every adapter runs this same
 * suite (intents.memory.test.ts, intents.mongo.test.ts). Records use random
 * ids and wallets, so the suite can share one store (one database).
 */

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

function intent(over: Partial<Intent> = {}): Intent {
  return {
    id: `intent_${hex(16)}`,
    accountId: `acct_${hex(16)}`,
    walletId: `svc_wallet_${hex(16)}`,
    status: 'pending',
    action: 'lend',
    amount: '100',
    requestedAmount: '100',
    asset: 'USDC',
    executionPlan: null,
    createdAt: at(0),
    updatedAt: at(0),
    version: 0,
    ...over,
  };
}

/** A single-bridge lend caught between its bridge's burn (sent, not yet confirmed) and its deposit. */
function midExecution(over: Partial<Intent> = {}): Intent {
  return intent({
    status: 'executing',
    amount: '99.95',
    chain: 'base-sepolia',
    version: 5,
    updatedAt: at(9),
    executionPlan: {
      strategy: 'single-bridge',
      reasoning: 'Lend 100 USDC. Best: base-sepolia/aave-v3 at 4.20%.',
      steps: [
        {
          index: 0,
          type: 'bridge',
          status: 'executing',
          chain: 'arbitrum-sepolia',
          from: 'arbitrum-sepolia',
          to: 'base-sepolia',
          amount: '100',
          fee: '0.05',
          startedAt: at(2),
          txHash: `0x${hex(32)}`,
        },
        { index: 1, type: 'deposit', status: 'pending', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '99.95' },
      ],
    },
    results: {
      completedSteps: 0,
      transactions: [
        { type: 'bridge', txHash: `0x${hex(32)}`, chain: 'arbitrum-sepolia', gasUsed: '46000', gasCostUsd: 0.0123 },
        // the engine's sub-transaction fields (kind, step, raw, status) ride along in the same records
        Object.assign(
          { type: 'bridge' as const, txHash: `0x${hex(32)}`, chain: 'arbitrum-sepolia' as const },
          { kind: 'burn', step: 0, raw: `0x${hex(120)}`, status: 'signed' },
        ),
      ],
      totalGasUsed: '46000',
      totalGasCostUsd: 0.0123,
      finalAmount: '0',
      apy: 4.2,
    },
    ...over,
  });
}

/** Expects `p` to reject with the VERSION_CONFLICT ServiceError (409). */
async function expectConflict(p: Promise<unknown>): Promise<void> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isServiceError(error)).toBe(true);
  // the status is the doors' mapping of the code (src/http/errorStatus.ts), no longer a field of the domain's error
  expect({ code: (error as { code: string }).code, status: errorStatus(error as Parameters<typeof errorStatus>[0]) }).toMatchObject({
    code: 'VERSION_CONFLICT',
    status: 409,
  });
}

/** Registers the intents repository contract for one adapter. */
export function describeIntentRepoContract(name: string, makeStore: () => Promise<Pick<Store, 'intents' | 'close'>>): void {
  describe(`intent repo contract: ${name}`, () => {
    let store: Pick<Store, 'intents' | 'close'>;

    beforeAll(async () => {
      store = await makeStore();
    });

    afterAll(async () => {
      await store?.close();
    });

    test('behavior: insert → get round-trips a pending intent (optional fields stay absent)', async () => {
      const i = intent();
      await store.intents.insert(i);
      const loaded = await store.intents.get(i.id);
      expect(loaded).toEqual(i);
      expect(Object.keys(loaded ?? {}).sort()).toEqual(Object.keys(i).sort());
    });

    test('behavior: a caller cannot change what the store holds through a record it was given or gave (a write is refused or stays its own)', async () => {
      const i = midExecution();
      const expected = structuredClone(i);
      await store.intents.insert(i);
      // the object handed to insert stays the caller's: changing it afterwards changes nothing stored
      i.status = 'failed';
      i.executionPlan!.steps[0]!.status = 'failed';
      expect(await store.intents.get(i.id)).toEqual(expected);

      /** Tries to write through every level of a returned record; a frozen record throws (strict mode), a copy just changes. */
      const tamper = (r: Intent): void => {
        const attempts = [
          () => ((r as { status: string }).status = 'completed'),
          () => (r.executionPlan!.steps[0]!.status = 'completed'),
          () => r.executionPlan!.steps.push({ ...r.executionPlan!.steps[0]! }),
          () => (r.results!.transactions[0]!.txHash = '0xdead'),
          () => r.results!.transactions.splice(0, 1),
          () => ((r.executionPlan as { reasoning: string }).reasoning = 'tampered'),
        ];
        for (const attempt of attempts) {
          try {
            attempt();
          } catch (e) {
            expect((e as Error).name).toBe('TypeError');
          }
        }
      };
      tamper((await store.intents.get(i.id))!);
      for (const r of await store.intents.listByWallet(i.walletId, { limit: 10 })) tamper(r);
      for (const r of await store.intents.listNonFinal()) if (r.id === i.id) tamper(r);
      expect(await store.intents.get(i.id)).toEqual(expected);

      // a record passed to update: the store's copy is not reachable through it either
      const next: Intent = { ...expected, version: expected.version + 1, updatedAt: at(20), executionPlan: structuredClone(expected.executionPlan) };
      await store.intents.update(next, expected.version);
      const stored = structuredClone(next);
      tamper(next);
      expect(await store.intents.get(i.id)).toEqual(stored);
    });

    test('behavior: save → load round-trips an intent mid-execution (plan, step progress, sub-transaction records)', async () => {
      const i = midExecution();
      await store.intents.insert(i);
      expect(await store.intents.get(i.id)).toEqual(i);
    });

    test('behavior: a failed intent round-trips its error details and failedStep', async () => {
      const i = midExecution({
        status: 'failed',
        error: { code: 'BRIDGE_FAILED', message: 'Bridge step 1 reverted', details: { step: 1, chain: 'arbitrum-sepolia', nested: { list: [1, 'two'] } } },
      });
      i.results = { ...i.results!, failedStep: 1 };
      await store.intents.insert(i);
      expect(await store.intents.get(i.id)).toEqual(i);
    });

    test('behavior: get of an unknown id is null', async () => {
      expect(await store.intents.get(`intent_${hex(16)}`)).toBeNull();
    });

    test('error: a second intent with the same id is a DuplicateError', async () => {
      const i = intent();
      await store.intents.insert(i);
      const p = store.intents.insert({ ...i, amount: '5' });
      await expect(p).rejects.toBeInstanceOf(DuplicateError);
      await expect(p).rejects.toMatchObject({ index: 'intents.id' });
      expect((await store.intents.get(i.id))?.amount).toBe('100');
    });

    test('behavior: update at the stored version replaces the record', async () => {
      const i = intent();
      await store.intents.insert(i);
      const next = midExecution({ id: i.id, accountId: i.accountId, walletId: i.walletId, version: 1 });
      await store.intents.update(next, 0);
      expect(await store.intents.get(i.id)).toEqual(next);
    });

    test('error: update at a stale version is VERSION_CONFLICT and leaves the record alone', async () => {
      const i = intent({ version: 3 });
      await store.intents.insert(i);
      await expectConflict(store.intents.update({ ...i, status: 'planning', version: 3 }, 2));
      expect(await store.intents.get(i.id)).toEqual(i);
    });

    test('error: update of an unknown intent is VERSION_CONFLICT', async () => {
      await expectConflict(store.intents.update(intent({ version: 1 }), 0));
    });

    test('behavior: of two updates from the same version exactly one wins', async () => {
      const i = intent();
      await store.intents.insert(i);
      const results = await Promise.allSettled([
        store.intents.update({ ...i, status: 'planning', version: 1 }, 0),
        store.intents.update({ ...i, status: 'planning', amount: '7', version: 1 }, 0),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect((await store.intents.get(i.id))?.version).toBe(1);
    });

    describe('listByWallet', () => {
      const walletId = `svc_wallet_${hex(16)}`;
      // seconds 1..5; two share second 3 so the id breaks the tie
      const seeded = [1, 2, 3, 3, 4, 5].map((s, n) =>
        intent({ walletId, createdAt: at(s), id: `intent_${n === 3 ? 'b' : 'a'}${hex(15)}`, status: n % 2 === 0 ? 'completed' : 'pending' }),
      );
      const newestFirst = [...seeded].sort((a, b) => (a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? 1 : -1));

      beforeAll(async () => {
        for (const i of seeded) await store.intents.insert(i);
        await store.intents.insert(intent({ createdAt: at(3) })); // another wallet
      });

      test('behavior: newest first, ties broken by id, other wallets left out', async () => {
        const listed = await store.intents.listByWallet(walletId, { limit: 50 });
        expect(listed.map((i) => i.id)).toEqual(newestFirst.map((i) => i.id));
      });

      test('behavior: pages by cursor without gaps or overlaps', async () => {
        const seen: string[] = [];
        let after: { createdAt: string; id: string } | undefined;
        for (;;) {
          const page = await store.intents.listByWallet(walletId, { limit: 4, after });
          seen.push(...page.map((i) => i.id));
          const last = page[page.length - 1];
          if (page.length < 4 || last === undefined) break;
          after = { createdAt: last.createdAt, id: last.id };
        }
        expect(seen).toEqual(newestFirst.map((i) => i.id));
      });

      test('behavior: status filters, and combines with the cursor', async () => {
        const pending = newestFirst.filter((i) => i.status === 'pending');
        expect((await store.intents.listByWallet(walletId, { status: 'pending', limit: 50 })).map((i) => i.id)).toEqual(pending.map((i) => i.id));
        const first = pending[0]!;
        const rest = await store.intents.listByWallet(walletId, { status: 'pending', limit: 50, after: { createdAt: first.createdAt, id: first.id } });
        expect(rest.map((i) => i.id)).toEqual(pending.slice(1).map((i) => i.id));
      });

      test('behavior: updatedSince keeps what changed at or after the instant, and combines with the status', async () => {
        const wallet = `svc_wallet_${hex(16)}`;
        const old = intent({ walletId: wallet, createdAt: at(1), updatedAt: at(2) });
        const edge = intent({ walletId: wallet, createdAt: at(1), updatedAt: at(10), status: 'executing' });
        const late = intent({ walletId: wallet, createdAt: at(3), updatedAt: at(20) });
        for (const i of [old, edge, late]) await store.intents.insert(i);
        const ids = async (q: { status?: 'executing' }) =>
          (await store.intents.listByWallet(wallet, { limit: 10, updatedSince: at(10), ...q })).map((i) => i.id).sort();
        expect(await ids({})).toEqual([edge.id, late.id].sort());
        expect(await ids({ status: 'executing' })).toEqual([edge.id]);
        expect(await store.intents.listByWallet(wallet, { limit: 10, updatedSince: at(21) })).toEqual([]);
      });

      test('behavior: an unknown wallet lists nothing', async () => {
        expect(await store.intents.listByWallet(`svc_wallet_${hex(16)}`, { limit: 10 })).toEqual([]);
      });
    });

    test("behavior: listByAccount lists the account's intents across wallets, newest first, bounded, other accounts left out", async () => {
      const accountId = `acct_${hex(16)}`;
      const mine = [1, 4, 2, 3].map((sec, n) => intent({ accountId, walletId: `svc_wallet_${n % 2}${hex(15)}`, createdAt: at(100 + sec) }));
      for (const i of mine) await store.intents.insert(i);
      await store.intents.insert(intent({ createdAt: at(150) })); // another account, newer
      const listed = await store.intents.listByAccount(accountId, 10);
      expect(listed.map((i) => i.createdAt)).toEqual([at(104), at(103), at(102), at(101)]);
      expect((await store.intents.listByAccount(accountId, 2)).map((i) => i.id)).toEqual(listed.slice(0, 2).map((i) => i.id));
      expect(await store.intents.listByAccount(accountId, 0)).toEqual([]);
    });

    test('behavior: listNonFinal returns pending, planning and executing intents, oldest first', async () => {
      const walletId = `svc_wallet_${hex(16)}`;
      const mine = [
        intent({ walletId, status: 'executing', createdAt: at(30) }),
        intent({ walletId, status: 'pending', createdAt: at(10) }),
        intent({ walletId, status: 'completed', createdAt: at(15) }),
        intent({ walletId, status: 'planning', createdAt: at(20) }),
        intent({ walletId, status: 'failed', createdAt: at(25) }),
      ];
      for (const i of mine) await store.intents.insert(i);
      const listed = (await store.intents.listNonFinal()).filter((i) => i.walletId === walletId);
      expect(listed.map((i) => i.status)).toEqual(['pending', 'planning', 'executing']);
      expect(listed[2]).toEqual(mine[0]);
    });
  });
}
