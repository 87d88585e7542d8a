import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { BaseDoc, CollectionDef, defineCollection, serviceDataFile, SqliteStore } from '@app/store';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { SERVICE_CATALOGUE } from '../../launcher/src/service-catalogue';

/**
 * Issue 20 §5 through the gateway: a member with something in every service deletes the
 * account; afterwards every service's store is read directly. Nothing they wrote survives, the
 * counters on others' things are exact, their squad has a new admin, their token and password
 * are refused. The stack runs on files so the stores and the uploads can be read after it stops.
 */

const PASSWORD = 'quiet-harbour-lantern-7';
/** Words only the deleted member wrote: none may be left in any store. */
const THEIR_WORDS = ['gone-review-words', 'gone-comment-words', 'gone-message-words', 'gone-list-name', 'gone.member@example.com', 'Gone Member'];
const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

interface Member {
  id: string;
  username: string;
  token: string;
  auth: { Authorization: string };
}

describe('account deletion reaches every service (embedded stack)', () => {
  let dataDir: string;
  let stack: EmbeddedStack | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'deletion-'));
    stack = await startEmbeddedStack({ port: 0, dataDir, seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off', COUNTER_REPAIR: 'off' } });
  });

  afterAll(async () => {
    await stack?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = () => request((stack as EmbeddedStack).url);
  const settle = () => (stack as EmbeddedStack).settle();

  async function register(email: string, name: string): Promise<Member> {
    const res = await api().post('/api/auth/register').send({ email, name, password: PASSWORD }).expect(201);
    const token = res.body.data.token as string;
    return { id: res.body.data.user.id, username: res.body.data.user.username, token, auth: { Authorization: `Bearer ${token}` } };
  }

  async function ok<T = unknown>(who: Member, method: 'post' | 'get' | 'put', path: string, body?: object): Promise<T> {
    const res = await api()[method](path).set(who.auth).send(body);
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${res.text}`);
    return res.body.data as T;
  }

  it('erases the member everywhere, keeps the others exact, and refuses the old token and password', async () => {
    const gone = await register('gone.member@example.com', 'Gone Member');
    const ali = await register('ali.keeps@example.com', 'Ali Keeps');
    const burak = await register('burak.keeps@example.com', 'Burak Keeps');
    await settle();

    // Follows both ways, with Burak following Ali too.
    await ok(gone, 'post', `/api/follows/users/${ali.id}`);
    await ok(ali, 'post', `/api/follows/users/${gone.id}`);
    await ok(burak, 'post', `/api/follows/users/${ali.id}`);
    await settle();

    // Reviews: Ali's product, reviewed by all three; likes and comments across.
    const product = await ok<{ id: string }>(ali, 'post', '/api/products', { name: 'Shared Kettle', category: 'Kitchen', price: 25 });
    const alisReview = await ok<{ id: string }>(ali, 'post', '/api/reviews', { product_id: product.id, rating: 4, title: 'Fine', content: 'Ali says fine' });
    await ok(burak, 'post', '/api/reviews', { product_id: product.id, rating: 2, title: 'Meh', content: 'Burak says meh' });
    const goneReview = await ok<{ id: string }>(gone, 'post', '/api/reviews', { product_id: product.id, rating: 5, title: 'Great', content: 'gone-review-words' });
    await ok(gone, 'post', `/api/likes/reviews/${alisReview.id}`);
    await ok(burak, 'post', `/api/likes/reviews/${alisReview.id}`);
    await ok(ali, 'post', `/api/likes/reviews/${goneReview.id}`);
    await ok(gone, 'post', `/api/reviews/${alisReview.id}/comments`, { content: 'gone-comment-words' });
    await ok(burak, 'post', `/api/reviews/${alisReview.id}/comments`, { content: 'Burak agrees' });
    await ok(ali, 'post', `/api/reviews/${goneReview.id}/comments`, { content: 'Ali thanks' });
    await ok(gone, 'post', `/api/saved/products/${product.id}`);
    await ok(ali, 'post', `/api/saved/reviews/${goneReview.id}`);
    const list = await ok<{ id: string }>(gone, 'post', '/api/lists', { name: 'gone-list-name', visibility: 'public' });
    await ok(gone, 'post', `/api/lists/${list.id}/items`, { product_id: product.id });
    const upload = await api().post('/api/media').set(gone.auth).attach('file', PNG_1PX, 'me.png').expect(201);
    const mediaId = upload.body.data.id as string;
    expect(existsSync(join(dataDir, 'reviews', 'media', mediaId))).toBe(true);

    // A squad Gone runs, that Ali joined first and Burak after; Ali's squad Gone joined.
    const squad = await ok<{ id: string }>(gone, 'post', '/api/squads', { name: 'Gone Squad', category: 'Food' });
    for (const joiner of [ali, burak]) {
      const asked = await ok<{ id: string }>(joiner, 'post', `/api/squads/${squad.id}/request-join`, {});
      await ok(gone, 'post', `/api/squads/${squad.id}/join-requests/${asked.id}`, { action: 'approve' });
    }
    await settle();

    // Messages both ways in a one-to-one, reactions on each other's.
    const conversation = await ok<{ id: string }>(ali, 'post', '/api/messages/conversations', { memberIds: [gone.id] });
    const alisMessage = await ok<{ id: string }>(ali, 'post', `/api/messages/conversations/${conversation.id}/messages`, { content: 'Ali writes' });
    const goneMessage = await ok<{ id: string }>(gone, 'post', `/api/messages/conversations/${conversation.id}/messages`, { content: 'gone-message-words' });
    await ok(gone, 'post', `/api/messages/${alisMessage.id}/reactions`, { emoji: '👍' });
    await ok(ali, 'post', `/api/messages/${goneMessage.id}/reactions`, { emoji: '😂' });
    await settle();
    expect((await ok<unknown[]>(gone, 'get', '/api/notifications')).length).toBeGreaterThan(0);

    // A wrong password is refused with a field error and changes nothing.
    const wrong = await api().delete('/api/users/me').set(gone.auth).send({ password: 'not-the-password-9' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ success: false, errors: [{ field: 'password' }] });
    const missing = await api().delete('/api/users/me').set(gone.auth).send({});
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toContain('password');

    const deleted = await api().delete('/api/users/me').set(gone.auth).send({ password: PASSWORD });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: 'Account deleted', data: null });
    await settle();

    // Their token is refused at once, a second DELETE cleanly, and the password no longer signs in.
    expect((await api().get('/api/auth/me').set(gone.auth)).status).toBe(401);
    const again = await api().delete('/api/users/me').set(gone.auth).send({ password: PASSWORD });
    expect([again.status, again.body.success]).toEqual([401, false]);
    expect((await api().post('/api/auth/login').send({ email: 'gone.member@example.com', password: PASSWORD })).status).toBe(401);

    // Counters on the others' things are exact.
    expect(await ok(ali, 'get', `/api/reviews/${alisReview.id}`)).toMatchObject({ like_count: 1, comment_count: 1 });
    expect(await ok(ali, 'get', `/api/products/${product.id}`)).toMatchObject({ review_count: 2, rating: 3 });
    expect(await ok(burak, 'get', `/api/users/profile/${ali.username}`)).toMatchObject({ followers_count: 1, following_count: 0 });
    expect((await api().get(`/api/reviews/${goneReview.id}`).set(ali.auth)).status).toBe(404);
    const squadView = await ok<{ member_count: number; user_role: string }>(ali, 'get', `/api/squads/${squad.id}`);
    expect(squadView).toMatchObject({ member_count: 2, user_role: 'admin' });
    expect(await ok(burak, 'get', `/api/squads/${squad.id}`)).toMatchObject({ user_role: 'member' });
    const history = await ok<{ sender: { display_name: string }; content: string; reactions: unknown[] }[]>(ali, 'get', `/api/messages/conversations/${conversation.id}/messages`);
    expect(history.map((m) => [m.sender.display_name, m.content, m.reactions.length])).toEqual([
      ['Ali Keeps', 'Ali writes', 0],
      ['Deleted member', '', 0],
    ]);
    const alisNotifications = await ok<{ related_user: { id: string } | null }[]>(ali, 'get', '/api/notifications');
    expect(alisNotifications.filter((n) => n.related_user?.id === gone.id)).toEqual([]);
    expect((await ok<{ unread_count: number }>(ali, 'get', '/api/notifications/unread-count')).unread_count).toBe(alisNotifications.length);
    expect((await api().get(`/api/media/${mediaId}`)).status).toBe(404);

    // Then every store, read directly once the stack is down: not a word of theirs anywhere.
    await (stack as EmbeddedStack).close();
    stack = undefined;
    let everything = '';
    for (const { definition } of SERVICE_CATALOGUE) {
      const store = new SqliteStore({ file: serviceDataFile(dataDir, definition.name) });
      await store.open(definition.collections as CollectionDef<BaseDoc>[]);
      try {
        for (const collection of definition.collections) {
          const text = JSON.stringify(await store.collection(collection as CollectionDef<BaseDoc>).find({}));
          everything += text;
          for (const words of THEIR_WORDS) expect([definition.name, collection.name, text.includes(words)]).toEqual([definition.name, collection.name, false]);
        }
        const rowsOf = (name: string, filter: Record<string, unknown>) => store.collection(defineCollection(name)).count(filter);
        if (definition.name === 'auth') expect(await rowsOf('users', { _id: gone.id })).toBe(0);
        if (definition.name === 'social') expect(await rowsOf('follows', { $or: [{ follower_id: gone.id }, { followee_id: gone.id }] })).toBe(0);
        if (definition.name === 'reviews') {
          for (const [name, field] of [['reviews', 'user_id'], ['likes', 'user_id'], ['comments', 'user_id'], ['saved_items', 'user_id'], ['lists', 'user_id'], ['media', 'owner_id']]) {
            expect([name, await rowsOf(name, { [field]: gone.id })]).toEqual([name, 0]);
          }
        }
        if (definition.name === 'squads') expect(await rowsOf('squad_members', { user_id: gone.id })).toBe(0);
        if (definition.name === 'messaging') expect(await rowsOf('message_reactions', { user_id: gone.id })).toBe(0);
        if (definition.name === 'notifications') {
          expect(await rowsOf('notifications', { $or: [{ recipient_id: gone.id }, { actor_id: gone.id }] })).toBe(0);
        }
      } finally {
        await store.close();
      }
    }
    // The scan reads real rows: what the others wrote is all there.
    for (const theirs of ['Ali writes', 'Burak agrees', 'Ali says fine', 'ali.keeps@example.com']) expect(everything).toContain(theirs);
    expect(existsSync(join(dataDir, 'reviews', 'media', mediaId))).toBe(false);
  });
});
