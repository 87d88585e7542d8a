import { decodeDoc, encodeDoc } from './sqlite-json';

describe('encodeDoc / decodeDoc', () => {
  it('round-trips a Date wherever it sits: top level, in a sub-document, in an array', () => {
    const at = new Date('2024-05-06T07:08:09.010Z');
    const doc = { _id: 'a', at, inner: { at, list: [1, { at }] }, dates: [at] };
    const text = encodeDoc(doc);
    expect(text).toContain('{"$$date":1714979289010}');
    expect(decodeDoc(text)).toEqual(doc);
    expect((decodeDoc(text) as typeof doc).inner.list[1]).toEqual({ at });
  });

  it('writes a document without dates as plain JSON', () => {
    const doc = { _id: 'a', n: 1, s: 'x', tags: ['t'], nested: { ok: true, none: null } };
    expect(encodeDoc(doc)).toBe(JSON.stringify(doc));
    expect(decodeDoc(encodeDoc(doc))).toEqual(doc);
  });
});
