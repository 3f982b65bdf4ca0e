import { newId, newTimeOrderedId } from '../../../src/domain/ids';

describe('time-ordered ids', () => {
  test("behavior: ids of one millisecond sort in the order they were made, and later milliseconds after earlier ones; the shape is newId's", () => {
    const at = Date.parse('2026-11-26T12:00:00.123Z');
    const ids = [...Array.from({ length: 50 }, () => newTimeOrderedId('audit', at)), newTimeOrderedId('audit', at + 1), newTimeOrderedId('audit', at + 1000)];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^svc_audit_[0-9a-f]{32}$/);
    expect(newId('audit')).toMatch(/^svc_audit_[0-9a-f]{32}$/);
  });
});
