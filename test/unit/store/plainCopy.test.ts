import { plainCopy } from '../../../src/store/memory/plainCopy';

describe('memory store: plainCopy', () => {
  test('copies plain objects and arrays all the way down: a change to either side never reaches the other', () => {
    const original = { id: 'a', n: 1, big: 2n, none: null, gone: undefined, list: [{ x: 1 }, [2, 3]], nested: { deep: { flag: true } } };
    const copy = plainCopy(original);
    expect(copy).toStrictEqual(original);
    copy.nested.deep.flag = false;
    (copy.list[0] as { x: number }).x = 9;
    (copy.list[1] as number[]).push(4);
    expect(original.nested.deep.flag).toBe(true);
    expect(original.list).toEqual([{ x: 1 }, [2, 3]]);
    expect(copy).not.toBe(original);
    expect(Object.keys(copy)).toEqual(Object.keys(original));
  });

  test('anything but plain data is copied by structuredClone (a Date stays a Date, a Map a Map), or refused like it', () => {
    const at = new Date('2030-01-01T00:00:00.000Z');
    const copy = plainCopy({ at, tags: new Map([['k', { v: 1 }]]) });
    // structuredClone builds in Node's own realm, not the test's: compare the kind, not the constructor
    expect(Object.prototype.toString.call(copy.at)).toBe('[object Date]');
    expect(copy.at).not.toBe(at);
    expect(copy.at.getTime()).toBe(at.getTime());
    expect(copy.tags.get('k')).toEqual({ v: 1 });
    expect(() => plainCopy({ f: () => 1 })).toThrow();
  });

  test('an object without a prototype comes back as a plain object with the same fields', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    expect(plainCopy(bare)).toEqual({ a: 1 });
  });
});
