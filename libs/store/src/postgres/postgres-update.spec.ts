import { Params } from './postgres-filter';
import { plainUpdateSql } from './postgres-update';

const sql = (update: Record<string, unknown>, textFields: string[] = []) => {
  const params = new Params();
  return { expr: plainUpdateSql(update as never, params, textFields), values: params.values };
};

/** Which updates run as one plain UPDATE; the store contract proves they store what read-apply-write would. */
describe('plainUpdateSql', () => {
  it('takes a $set of an object or array value (a conversation\'s last message) as one jsonb merge', () => {
    const at = new Date(1_700_000_000_000);
    const { expr, values } = sql({ $set: { last_message: { id: 'm1', sender: { id: 'u1' }, tags: ['a'], at }, updated_at: 'x' }, $inc: { n: 1 } });
    expect(expr).toContain('doc || $1::jsonb');
    expect(JSON.parse(values[0] as string)).toEqual({ last_message: { id: 'm1', sender: { id: 'u1' }, tags: ['a'], at: { $$date: at.getTime() } }, updated_at: 'x' });
    expect(sql({ $set: { ids: ['a', 'b'], empty: {} } }).expr).not.toBeNull();
  });

  it.each([
    ['a dotted path', { $set: { 'meta.size': 1 } }],
    ['an operator-like key inside the value', { $set: { meta: { $gt: 1 } } }],
    ['undefined inside the value', { $set: { meta: { a: undefined } } }],
    ['a class instance', { $set: { meta: new Map() } }],
    ['a non-finite number inside an array', { $set: { list: [1, Number.NaN] } }],
    ['$push', { $push: { tags: 'x' } }],
  ])('leaves %s to read-apply-write', (_what, update) => {
    expect(sql(update).expr).toBeNull();
  });

  it('leaves a $set touching a text field to read-apply-write (its search vector is computed in JavaScript)', () => {
    expect(sql({ $set: { body: { text: 'x' } } }, ['body.text']).expr).toBeNull();
  });
});
