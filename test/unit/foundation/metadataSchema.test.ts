import { METADATA_MAX_BYTES, metadataSchema } from '../../../src/domain/schemas/metadata';
import { createWalletSchema, userIdSchema } from '../../../src/domain/schemas/wallet';

const issuesOf = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => (r.error?.issues ?? []).map((i) => i.path.map(String).join('.'));

/** An object nested `levels` objects deep counting the metadata object itself: nest(1) = {v: 1}. */
function nest(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = { v: 1 };
  for (let i = levels - 1; i >= 1; i--) v = { [`l${i}`]: v };
  return v;
}

describe('metadata schema (docs/decisions.md)', () => {
  test('behavior: exactly 8 KiB serialised is accepted, one byte more is not', () => {
    const at = { a: 'x'.repeat(METADATA_MAX_BYTES - 8) };
    expect(Buffer.byteLength(JSON.stringify(at))).toBe(8192);
    expect(metadataSchema.safeParse(at).success).toBe(true);
    const over = metadataSchema.safeParse({ a: 'x'.repeat(METADATA_MAX_BYTES - 7) });
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toMatch(/8193 bytes.*8192/);
  });

  test('behavior: the limit counts UTF-8 bytes, not characters', () => {
    expect(metadataSchema.safeParse({ a: 'é'.repeat(4092) }).success).toBe(true);
    expect(metadataSchema.safeParse({ a: 'é'.repeat(4093) }).success).toBe(false);
  });

  test('behavior: nesting of 5 levels is accepted, 6 is not (named at the 6th level)', () => {
    expect(metadataSchema.safeParse(nest(5)).success).toBe(true);
    const r = metadataSchema.safeParse(nest(6));
    expect(r.success).toBe(false);
    expect(issuesOf(r)).toEqual(['l1.l2.l3.l4.l5']);
    expect(metadataSchema.safeParse({ a: [[[[1]]]] }).success).toBe(true);
    expect(metadataSchema.safeParse({ a: [[[[[1]]]]] }).success).toBe(false);
  });

  test('error: keys starting with $ or containing . are named, at any depth and inside arrays', () => {
    const r = metadataSchema.safeParse({ $where: 1, ok: { 'a.b': 2, list: [{ $gt: 3 }] }, fine$: 4, v: '$not-a-key' });
    expect(r.success).toBe(false);
    expect(issuesOf(r).sort()).toEqual(['$where', 'ok.a.b', 'ok.list.0.$gt']);
  });

  test('error: metadata must be a JSON object', () => {
    for (const bad of [[1], 'text', 3, null, { a: undefined as unknown }, { d: new Date() as unknown }]) {
      expect(metadataSchema.safeParse(bad).success).toBe(false);
    }
    expect(metadataSchema.safeParse({ a: null, b: [true, 1.5, 'x'], c: {} }).success).toBe(true);
  });
});

describe('wallet request schema', () => {
  test('behavior: userId is 1–128 of A-Z a-z 0-9 . _ : @ -', () => {
    for (const ok of ['a', 'u'.repeat(128), 'Az09._:@-', 'user@example.com']) expect(userIdSchema.safeParse(ok).success).toBe(true);
    for (const bad of ['', 'u'.repeat(129), 'a b', 'a/b', 'ü', 'a\n', '$a', 42]) expect(userIdSchema.safeParse(bad).success).toBe(false);
  });

  test('behavior: chainType defaults to ethereum; email is checked; unknown fields are refused', () => {
    expect(createWalletSchema.parse({ userId: 'u' })).toEqual({ userId: 'u', chainType: 'ethereum' });
    expect(createWalletSchema.safeParse({ userId: 'u', chainType: 'tron' }).success).toBe(true);
    expect(issuesOf(createWalletSchema.safeParse({ userId: 'u', chainType: 'solana' }))).toEqual(['chainType']);
    expect(issuesOf(createWalletSchema.safeParse({ userId: 'u', email: 'no-at-sign' }))).toEqual(['email']);
    expect(createWalletSchema.safeParse({ userId: 'u', extra: 1 }).success).toBe(false);
  });
});
