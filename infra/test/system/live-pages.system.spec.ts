import request from 'supertest';
import type { Socket } from 'socket.io-client';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';
import { auth, connectMember, Inbox, Member, register, until } from './chat-clients';

/**
 * Issue 43 §4 through the whole stack and real socket clients: a join request, its decision and a squad
 * role reach the sockets of both sides of the squad page; a report and its dismissal reach the staff's
 * sockets; nobody else hears of them, and a push carries no more than the squad's id.
 */
describe('live squad pages and moderation queue over the socket (embedded stack)', () => {
  let stack: EmbeddedStack;
  let admin: Member;
  let ayse: Member;
  let burak: Member;
  let outsider: Member;
  const inboxes: Record<string, Inbox> = {};
  const sockets: Socket[] = [];

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    // the site's first account is its admin
    admin = await register(stack.url, 'Admin');
    ayse = await register(stack.url, 'Ayse');
    burak = await register(stack.url, 'Burak');
    outsider = await register(stack.url, 'Outsider');
    await stack.settle();
    for (const m of [admin, ayse, burak, outsider]) {
      inboxes[m.id] = {};
      sockets.push(await connectMember(stack.url, m, inboxes[m.id]));
    }
  });

  afterAll(async () => {
    for (const s of sockets) s.close();
    await stack?.close();
  });

  const api = () => request(stack.url);
  const heard = (m: Member, event: string) => inboxes[m.id][event] ?? [];

  it('a join request, its approval and a role change reach the requester and the managers, and no one else', async () => {
    const squad = (await api().post('/api/squads').set(auth(ayse)).send({ name: 'Live Beans', category: 'Food' })).body.data;
    const asked = await api().post(`/api/squads/${squad.id}/request-join`).set(auth(burak)).send({ message: 'hi' });
    expect(asked.status).toBe(201);
    await until(() => heard(ayse, 'squad-changed').length === 1, "the admin's socket hears of the request");
    expect(heard(ayse, 'squad-changed')).toEqual([{ squadId: squad.id }]);

    expect((await api().post(`/api/squads/${squad.id}/join-requests/${asked.body.data.id}`).set(auth(ayse)).send({ action: 'approve' })).status).toBe(200);
    await until(() => heard(burak, 'squad-changed').length >= 2, "the requester's socket hears of the approval");

    expect((await api().put(`/api/squads/${squad.id}/members/${burak.id}`).set(auth(ayse)).send({ role: 'moderator' })).status).toBe(200);
    const before = heard(burak, 'squad-changed').length;
    await until(() => heard(burak, 'squad-changed').length > before, "the member's socket hears of the new role");
    await stack.settle();
    for (const m of [admin, outsider]) expect(heard(m, 'squad-changed')).toEqual([]);
    expect(new Set(heard(burak, 'squad-changed').map((p) => JSON.stringify(p)))).toEqual(new Set([JSON.stringify({ squadId: squad.id })]));
  });

  it("a report and its dismissal reach the staff's open queues, and no member's", async () => {
    const review = (await api().post('/api/reviews').set(auth(ayse)).send({ content: 'Buy my course' })).body.data;
    expect((await api().post(`/api/reviews/${review.id}/report`).set(auth(burak)).send({ reason: 'Spam' })).status).toBe(201);
    await until(() => heard(admin, 'moderation-queue').length === 1, "the admin's socket hears of the report");

    const open = (await api().get('/api/moderation/reports').set(auth(admin))).body.data;
    expect((await api().post(`/api/moderation/reports/${open[0].id}/dismiss`).set(auth(admin)).send({ reason: 'Fine' })).status).toBe(200);
    await until(() => heard(admin, 'moderation-queue').length === 2, "the admin's socket hears of the dismissal");
    await stack.settle();
    for (const m of [ayse, burak, outsider]) expect(heard(m, 'moderation-queue')).toEqual([]);
  });
});
