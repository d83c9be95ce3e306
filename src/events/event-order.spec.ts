import type { FeedCandidate } from '../changes/change-feed.repository';
import { inRecordOrder } from './event-order';

/** An entry of record `account:<record>` with `key`; `waits` behind an unread earlier one. */
function entry(key: number, record: number, waits = false): FeedCandidate {
  return {
    key,
    rootEntity: 'account',
    rootKey: record,
    waits,
    dateCreated: new Date(0),
    operation: 'updated',
    entity: 'account',
    recordKey: record,
    idParentEntry: null,
    changes: {},
    detail: null,
    idActor: null,
    actorName: null,
    via: 'test',
    requestId: null,
    transactionId: 1,
    idOrganization: 1,
    idBusinessUnit: 1,
    idUser: 1,
  };
}

const keys = (entries: FeedCandidate[]) => entries.map((e) => e.key);

describe('inRecordOrder', () => {
  it('lets every entry go, in key order, when none waits', () => {
    const { ready, waiting } = inRecordOrder([entry(3, 1), entry(1, 2), entry(2, 1)]);
    expect(keys(ready)).toEqual([1, 2, 3]);
    expect(waiting).toEqual([]);
  });

  it('holds back an entry that waits, and every later one of its record', () => {
    const { ready, waiting } = inRecordOrder([
      entry(5, 1),
      entry(2, 1),
      entry(4, 1, true),
      entry(3, 2),
      entry(6, 2),
    ]);
    expect(keys(ready)).toEqual([2, 3, 6]);
    expect(keys(waiting)).toEqual([4, 5]);
  });

  it("holds back no other record's entries", () => {
    const { ready, waiting } = inRecordOrder([entry(1, 1, true), entry(2, 2), entry(3, 3)]);
    expect(keys(ready)).toEqual([2, 3]);
    expect(keys(waiting)).toEqual([1]);
  });

  it('tells records of different types with the same key apart', () => {
    const invoice = { ...entry(2, 1), rootEntity: 'invoice', entity: 'invoice' };
    const { ready, waiting } = inRecordOrder([entry(1, 1, true), invoice]);
    expect(keys(ready)).toEqual([2]);
    expect(keys(waiting)).toEqual([1]);
  });
});
