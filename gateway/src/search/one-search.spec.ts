import { FetchPart, oneSearch, PartReply } from './one-search';

const ok = (data: unknown): PartReply => ({ status: 200, body: { success: true, data } });

describe('oneSearch', () => {
  it('asks each part with the words and the group size, and joins the four groups', async () => {
    const asked: string[] = [];
    const fetchPart: FetchPart = async (service, path) => {
      asked.push(`${service} ${path}`);
      if (service === 'reviews') return ok({ products: [{ id: 'p' }], reviews: [{ id: 'r' }], tags: [{ tag: 'lamba', review_count: 2 }] });
      return ok([{ id: service }]);
    };
    const outcome = await oneSearch(fetchPart, 'şık lamba', '7');
    expect(outcome).toEqual({
      ok: true,
      data: { products: [{ id: 'p' }], users: [{ id: 'social' }], reviews: [{ id: 'r' }], squads: [{ id: 'squads' }], tags: [{ tag: 'lamba', review_count: 2 }] },
    });
    expect(asked.sort()).toEqual([
      'reviews /api/reviews/search?q=%C5%9F%C4%B1k+lamba&limit=7',
      'social /api/users/search?search=%C5%9F%C4%B1k+lamba&limit=7',
      'squads /api/squads/discover?search=%C5%9F%C4%B1k+lamba&limit=7',
    ]);
  });

  it('asks for 5 per group when no limit is given', async () => {
    const asked: string[] = [];
    await oneSearch(async (_s, path) => (asked.push(path), ok({ products: [], reviews: [] })), 'x', null);
    expect(asked.every((p) => p.endsWith('&limit=5'))).toBe(true);
  });

  it("answers with a part's 4xx (the field error on q) before another part's failure", async () => {
    const refused: PartReply = { status: 400, body: { success: false } };
    const fetchPart: FetchPart = async (service) => (service === 'reviews' ? refused : { status: 503, body: null });
    expect(await oneSearch(fetchPart, '', null)).toEqual({ ok: false, reply: refused });
  });

  it('fails as a whole when a part does not answer, never with a group missing', async () => {
    const fetchPart: FetchPart = async (service) => (service === 'squads' ? { status: 503, body: null } : ok({ products: [], reviews: [] }));
    expect(await oneSearch(fetchPart, 'lamp', null)).toEqual({ ok: false, reply: { status: 503, body: null } });
  });
});
