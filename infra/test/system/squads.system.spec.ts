import request from 'supertest';
import { EmbeddedStack, startEmbeddedStack } from '../../launcher/src/embedded-stack';

interface Member {
  id: string;
  auth: string;
}

describe('squads through the gateway (embedded stack)', () => {
  let stack: EmbeddedStack;
  let ayse: Member;
  let burak: Member;
  let cem: Member;

  async function register(email: string, name: string): Promise<Member> {
    const res = await request(stack.url).post('/api/auth/register').send({ email, name, password: 'lamp-desk-battery-42' });
    expect(res.status).toBe(201);
    return { id: res.body.data.user.id, auth: `Bearer ${res.body.data.token}` };
  }
  const api = () => request(stack.url);

  beforeAll(async () => {
    stack = await startEmbeddedStack({ port: 0, dataDir: ':memory:', seed: false, env: { LOG_LEVEL: 'silent', RATE_LIMITS: 'off' } });
    ayse = await register('ayse@example.com', 'Ayşe Yılmaz');
    burak = await register('burak@example.com', 'Burak Demir');
    cem = await register('cem@example.com', 'Cem Kaya');
    await stack.settle();
  });

  afterAll(() => stack.close());

  it('create, request with a message, approve, leave; admins stay; outsiders are refused', async () => {
    const created = await api()
      .post('/api/squads')
      .set('Authorization', ayse.auth)
      .send({ name: '  Mechanical Keyboards ', description: 'Switches and keycaps', category: 'Technology' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Mechanical Keyboards', user_role: 'admin', creator_name: 'Ayşe Yılmaz' });
    const squadId = created.body.data.id as string;

    const blank = await api().post('/api/squads').set('Authorization', ayse.auth).send({ name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ success: false, message: 'Squad name is required' });

    const discover = await api().get('/api/squads/discover?page=1&limit=10').set('Authorization', burak.auth);
    expect(discover.status).toBe(200);
    expect(discover.body.pagination).toMatchObject({ totalPages: 1, page: 1 });
    expect(discover.body.data[0]).toMatchObject({ id: squadId, is_member: false, join_request_status: null });

    const asked = await api()
      .post(`/api/squads/${squadId}/request-join`)
      .set('Authorization', burak.auth)
      .send({ message: ' I build my own boards ' });
    expect(asked.status).toBe(201);

    const pending = await api().get(`/api/squads/${squadId}/join-requests?status=pending`).set('Authorization', ayse.auth);
    expect(pending.status).toBe(200);
    expect(pending.body.data).toEqual([
      expect.objectContaining({
        id: asked.body.data.id,
        message: 'I build my own boards',
        created_at: expect.any(String),
        user: expect.objectContaining({ display_name: 'Burak Demir', username: 'burak_demir' }),
      }),
    ]);

    const outsiderList = await api().get(`/api/squads/${squadId}/join-requests`).set('Authorization', cem.auth);
    expect(outsiderList.status).toBe(403);

    const approved = await api()
      .post(`/api/squads/${squadId}/join-requests/${asked.body.data.id}`)
      .set('Authorization', ayse.auth)
      .send({ action: 'approve' });
    expect(approved.status).toBe(200);

    const asMember = await api().get(`/api/squads/${squadId}`).set('Authorization', burak.auth);
    expect(asMember.body.data).toMatchObject({ is_member: true, user_role: 'member', member_count: 2 });
    expect(asMember.body.data.members.map((m: { username: string; role: string }) => [m.username, m.role])).toEqual([
      ['ayse_yilmaz', 'admin'],
      ['burak_demir', 'member'],
    ]);

    const memberList = await api().get(`/api/squads/${squadId}/join-requests`).set('Authorization', burak.auth);
    expect(memberList.status).toBe(403);
    expect((await api().delete(`/api/squads/${squadId}`).set('Authorization', burak.auth)).status).toBe(403);
    expect((await api().delete(`/api/squads/${squadId}`).set('Authorization', cem.auth)).status).toBe(403);

    const stats = await api().get('/api/squads/stats').set('Authorization', ayse.auth);
    expect(stats.body.data).toEqual({ total_squads: 1, admin_squads: 1, moderator_squads: 0 });

    const left = await api().post(`/api/squads/${squadId}/leave`).set('Authorization', burak.auth);
    expect(left.status).toBe(200);
    const mine = await api().get('/api/squads/my-squads').set('Authorization', burak.auth);
    expect(mine.body.data).toEqual([]);

    const adminLeaves = await api().post(`/api/squads/${squadId}/leave`).set('Authorization', ayse.auth);
    expect(adminLeaves.status).toBe(403);
    expect(adminLeaves.body).toEqual({ success: false, message: 'Admins cannot leave the squad', code: 'ADMINS_CANNOT_LEAVE' });

    const after = await api().get(`/api/squads/${squadId}`).set('Authorization', ayse.auth);
    expect(after.body.data).toMatchObject({ member_count: 1, user_role: 'admin' });
  });

  it('a rename reaches the squad chat, the join notifications and the join activity (squad.updated)', async () => {
    const created = await api().post('/api/squads').set('Authorization', ayse.auth).send({ name: 'Pour Over Club', category: 'Food' });
    expect(created.status).toBe(201);
    const squadId = created.body.data.id as string;
    const asked = await api().post(`/api/squads/${squadId}/request-join`).set('Authorization', cem.auth).send({});
    expect(asked.status).toBe(201);
    // Burak's request stays pending: its notification must follow the rename.
    const pending = await api().post(`/api/squads/${squadId}/request-join`).set('Authorization', burak.auth).send({});
    expect(pending.status).toBe(201);
    await stack.settle();
    const approved = await api()
      .post(`/api/squads/${squadId}/join-requests/${asked.body.data.id}`)
      .set('Authorization', ayse.auth)
      .send({ action: 'approve' });
    expect(approved.status).toBe(200);
    await stack.settle();

    const chatName = async (who: Member) => {
      const list = await api().get('/api/messages/conversations').set('Authorization', who.auth);
      expect(list.status).toBe(200);
      return (list.body.data as { squad_id: string | null; name: string | null }[]).find((c) => c.squad_id === squadId)?.name;
    };
    expect(await chatName(ayse)).toBe('Pour Over Club');
    expect(await chatName(cem)).toBe('Pour Over Club');

    const renamed = await api().put(`/api/squads/${squadId}`).set('Authorization', ayse.auth).send({ name: 'Filter Coffee Club' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('Filter Coffee Club');
    await stack.settle();

    expect(await chatName(ayse)).toBe('Filter Coffee Club');
    expect(await chatName(cem)).toBe('Filter Coffee Club');
    const chat = await api().get(`/api/messages/squads/${squadId}/conversation`).set('Authorization', cem.auth);
    expect(chat.body.data).toMatchObject({ name: 'Filter Coffee Club', is_group: true, squad_id: squadId });

    const messagesOf = async (who: Member) =>
      ((await api().get('/api/notifications').set('Authorization', who.auth)).body.data as { message: string }[]).map((n) => n.message);
    expect(await messagesOf(ayse)).toContain('Burak Demir wants to join Filter Coffee Club');
    // A decided request's 'wants to join' is cleared for the managers.
    expect((await messagesOf(ayse)).filter((m) => m.startsWith('Cem Kaya wants to join'))).toEqual([]);
    expect(await messagesOf(cem)).toContain('Ayşe Yılmaz approved your request to join Filter Coffee Club');

    const activities = await api().get('/api/activities/user').set('Authorization', cem.auth);
    expect(activities.body.data).toContainEqual(
      expect.objectContaining({ type: 'squad_join', data: { squad: { id: squadId, name: 'Filter Coffee Club' } } }),
    );
  });
});
