import { inRecordOrder } from './event-order';

/** An entry of record `account:<record>` with `key`. */
const entry = (key: number, record: number, rootEntity = 'account') => ({
  key,
  rootEntity,
  rootKey: record,
});

const keys = (entries: { key: number }[]) => entries.map((e) => e.key);

describe('inRecordOrder', () => {
  it('lets every entry go, in key order, when nothing earlier of their records is unread', () => {
    const candidates = [entry(3, 1), entry(1, 2), entry(2, 1)];
    // The candidates are among the unread: they are read now.
    const { ready, waiting } = inRecordOrder(candidates, candidates);
    expect(keys(ready)).toEqual([1, 2, 3]);
    expect(waiting).toEqual([]);
  });

  it('holds back an entry behind an unread earlier one of its record, and every later one', () => {
    const candidates = [entry(5, 1), entry(2, 1), entry(6, 1), entry(3, 2), entry(7, 2)];
    // Entry 4 of record 1 committed in a later range: not read yet.
    const { ready, waiting } = inRecordOrder(candidates, [...candidates, entry(4, 1)]);
    expect(keys(ready)).toEqual([2, 3, 7]);
    expect(keys(waiting)).toEqual([5, 6]);
  });

  it("holds back no other record's entries, and tells types with the same key apart", () => {
    const candidates = [entry(2, 1, 'invoice'), entry(3, 2)];
    const { ready, waiting } = inRecordOrder(candidates, [entry(1, 1)]);
    expect(keys(ready)).toEqual([2, 3]);
    expect(waiting).toEqual([]);
  });

  it('lets an entry go whose unread earlier one is a later candidate of no importance: only keys before it count', () => {
    const candidates = [entry(2, 1)];
    const { ready } = inRecordOrder(candidates, [entry(9, 1)]);
    expect(keys(ready)).toEqual([2]);
  });
});
