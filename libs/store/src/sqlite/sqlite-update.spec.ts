import { update as mingoUpdate } from 'mingo';
import { Update } from '../store.port';
import { applyUpdate } from './sqlite-update';

type Row = Record<string, unknown>;

// The direct path for plain $set/$unset/$inc must leave the same document and say "changed"
// exactly when mingo's updater would.
describe('applyUpdate (direct path against mingo)', () => {
  const cases: [string, Row, Update][] = [
    ['$set a new field', { _id: 'a', n: 1 }, { $set: { s: 'x' } }],
    ['$set the same value', { _id: 'a', s: 'x' }, { $set: { s: 'x' } }],
    ['$set null on a missing field', { _id: 'a' }, { $set: { s: null } }],
    ['$set null over null', { _id: 'a', s: null }, { $set: { s: null } }],
    ['$set a boolean over a number', { _id: 'a', b: 1 }, { $set: { b: true } }],
    ['$inc a missing field by 0', { _id: 'a' }, { $inc: { n: 0 } }],
    ['$inc by 0', { _id: 'a', n: 3 }, { $inc: { n: 0 } }],
    ['$inc down', { _id: 'a', n: 3 }, { $inc: { n: -1 } }],
    ['$inc a float', { _id: 'a', n: 0.1 }, { $inc: { n: 0.2 } }],
    ['$inc a string (mingo leaves it)', { _id: 'a', n: 'x' }, { $inc: { n: 1 } }],
    ['$unset a present field', { _id: 'a', s: 'x', t: 1 }, { $unset: { s: '' } }],
    ['$unset a missing field', { _id: 'a', t: 1 }, { $unset: { s: '' } }],
    ['several operators', { _id: 'a', n: 1, s: 'x' }, { $set: { s: 'y', t: false }, $inc: { n: 2 }, $unset: { u: 1 } }],
    ['a dotted $set (mingo)', { _id: 'a', p: { q: 1 } }, { $set: { 'p.q': 2 } }],
    ['$set of an object', { _id: 'a' }, { $set: { o: { k: 1 } } }],
    ['$set of the same array', { _id: 'a', l: [1] }, { $set: { l: [1] } }],
    ['$set of another array', { _id: 'a', l: [1] }, { $set: { l: [1, 2] } }],
    ['$set of the same object', { _id: 'a', o: { k: 1, m: [null, 'x'] } }, { $set: { o: { k: 1, m: [null, 'x'] } } }],
    ['$set of an object with its keys reordered', { _id: 'a', o: { k: 1, m: 2 } }, { $set: { o: { m: 2, k: 1 } } }],
    ['$set of an object over a scalar', { _id: 'a', o: 3 }, { $set: { o: { last: { id: 'm', n: 2 }, at: 'now' } } }],
    ['$set of a scalar over an object', { _id: 'a', o: { k: 1 } }, { $set: { o: 'x' } }],
    ['$set of an object holding a date (mingo)', { _id: 'a' }, { $set: { o: { at: new Date(0) } } }],
  ];

  it.each(cases)('%s', (_name, doc, update) => {
    const ours = structuredClone(doc);
    const theirs = structuredClone(doc);
    const changed = applyUpdate(ours, update);
    const mingoChanged = mingoUpdate(theirs, update as never).length > 0;
    expect(ours).toEqual(theirs);
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    expect(changed).toBe(mingoChanged);
  });
});
