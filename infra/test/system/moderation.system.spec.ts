import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { probe } from './http-probe';

/**
 * Issue 22 §2 and §3 through the gateway: a keyword filter collapses a followee's review in the
 * feed; a report reaches the admin (first account), who hides the review (its author is told)
 * and suspends the author: their token stops at once and login says until when and why. A
 * reported comment is hidden out of its thread and its review's comment_count, its author told.
 */
describe('keyword filters and moderation (embedded stack)', () => {
  let stack: EmbeddedStack;
  const PASSWORD = 'lamp-desk-battery-42';

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
  }, 30_000);

  afterAll(() => stack?.close());

  async function call<T>(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; data: T; message?: string }> {
    const res = await probe(stack.url, { method, path, token, body, timeoutMs: 15_000 });
    const json = res.json as { data: T; message?: string };
    return { status: res.status, data: json?.data, message: json?.message };
  }

  async function register(email: string, name: string): Promise<{ id: string; token: string }> {
    const res = await call<{ token: string; user: { id: string; role: string } }>('POST', '/api/auth/register', undefined, { email, name, password: PASSWORD });
    expect(res.status).toBe(201);
    return { id: res.data.user.id, token: res.data.token };
  }

  it('filters, reports, hides, notifies and suspends end to end', async () => {
    const admin = await register('admin@example.com', 'Ada Admin');
    const author = await register('author@example.com', 'Ali Author');
    const reader = await register('reader@example.com', 'Rana Reader');
    await stack.settle();
    expect((await call('POST', `/api/follows/users/${author.id}`, reader.token)).status).toBe(200);
    await stack.settle();
    const review = (await call<{ id: string }>('POST', '/api/reviews', author.token, { content: 'ÇOK ŞEKERLİ, buy my course' })).data;
    await stack.settle();

    // A filter collapses it in the reader's feed, whatever the case and Turkish letters.
    expect((await call('POST', '/api/filters', reader.token, { phrase: 'sekerli', whole_word: true })).status).toBe(201);
    const feed = await call<{ id: string; filtered_by?: string }[]>('GET', '/api/feed', reader.token);
    expect(feed.data.find((r) => r.id === review.id)?.filtered_by).toBe('sekerli');

    // Members cannot read reports; the admin can.
    expect((await call('POST', `/api/reviews/${review.id}/report`, reader.token, { reason: 'Spam' })).status).toBe(201);
    expect((await call('GET', '/api/moderation/reports', reader.token)).status).toBe(403);
    const reports = await call<{ id: string; review: { id: string } }[]>('GET', '/api/moderation/reports', admin.token);
    expect(reports.data.map((r) => r.review.id)).toEqual([review.id]);

    expect((await call('POST', `/api/moderation/reviews/${review.id}/hide`, admin.token, { reason: 'Spam links' })).status).toBe(200);
    await stack.settle();
    expect((await call('GET', `/api/reviews/${review.id}`, reader.token)).status).toBe(404);
    const notes = await call<{ type: string; message: string }[]>('GET', '/api/notifications', author.token);
    expect(notes.data).toContainEqual(expect.objectContaining({ type: 'review_hidden', message: 'A moderator hid your review: Spam links' }));

    const suspended = await call<{ until: string }>('POST', `/api/moderation/suspensions/${author.id}`, admin.token, { hours: 48, reason: 'Repeated spam' });
    expect(suspended.status).toBe(201);
    await stack.settle();
    expect((await call('GET', '/api/feed', author.token)).status).toBe(401);
    const login = await call('POST', '/api/auth/login', undefined, { email: 'author@example.com', password: PASSWORD });
    expect(login.status).toBe(403);
    expect(login.message).toBe(`Your account is suspended until ${suspended.data.until}: Repeated spam`);

    const log = await call<{ action: string; reason: string }[]>('GET', '/api/moderation/log', admin.token);
    expect(log.data.map((e) => [e.action, e.reason])).toEqual([
      ['suspend', 'Repeated spam'],
      ['hide', 'Spam links'],
    ]);
  });

  it('a reported comment is hidden from its thread and its count, and its author is told', async () => {
    const [admin, writer, rude] = await Promise.all([
      call<{ token: string }>('POST', '/api/auth/login', undefined, { email: 'admin@example.com', password: PASSWORD }).then((r) => r.data),
      register('writer@example.com', 'Will Writer'),
      register('rude@example.com', 'Rob Rude'),
    ]);
    await stack.settle();
    const review = (await call<{ id: string }>('POST', '/api/reviews', writer.token, { content: 'Solid kettle' })).data;
    const comment = (await call<{ id: string }>('POST', `/api/reviews/${review.id}/comments`, rude.token, { content: 'Only fools buy this' })).data;
    await stack.settle();
    const count = async () => (await call<{ comment_count: number }>('GET', `/api/reviews/${review.id}`, writer.token)).data.comment_count;
    expect(await count()).toBe(1);

    expect((await call('POST', `/api/comments/${comment.id}/report`, writer.token, { reason: 'Insult' })).status).toBe(201);
    const reports = await call<{ kind: string; comment: { id: string; content: string } | null }[]>('GET', '/api/moderation/reports', admin.token);
    expect(reports.data[0]).toEqual(expect.objectContaining({ kind: 'comment', comment: expect.objectContaining({ id: comment.id, content: 'Only fools buy this' }) }));

    expect((await call('POST', `/api/moderation/comments/${comment.id}/hide`, admin.token, { reason: 'Insults' })).status).toBe(200);
    await stack.settle();
    expect((await call<unknown[]>('GET', `/api/reviews/${review.id}/comments`, writer.token)).data).toEqual([]);
    expect(await count()).toBe(0);
    const notes = await call<{ type: string; message: string }[]>('GET', '/api/notifications', rude.token);
    expect(notes.data).toContainEqual(expect.objectContaining({ type: 'comment_hidden', message: 'A moderator hid your comment: Insults' }));
  });
});
