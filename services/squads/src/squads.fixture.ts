import { newId } from '@app/store';
import { createTestService, TestService } from '@app/testing';
import { squadsService } from './squads.service-definition';

export interface TestMember {
  id: string;
  username: string;
  auth: { Authorization: string };
}

/** The squads service with in-memory engines, and a way to make members it knows by card. */
export class SquadsFixture {
  private constructor(readonly svc: TestService) {}

  static async start(): Promise<SquadsFixture> {
    return new SquadsFixture(await createTestService(squadsService));
  }

  async member(username: string, display_name = username, profile_image_url: string | null = null): Promise<TestMember> {
    const id = newId();
    await this.svc.publish(
      'user.registered',
      {
        userId: id,
        username,
        email: `${username}@example.com`,
        display_name,
        name: display_name,
        profile_image_url,
        created_at: new Date().toISOString(),
      },
      id,
    );
    return { id, username, auth: this.svc.authHeader({ id, username }) };
  }

  http() {
    return this.svc.http();
  }

  async createSquad(owner: TestMember, body: Record<string, unknown> = {}): Promise<string> {
    const res = await this.http().post('/api/squads').set(owner.auth).send({ name: 'Keyboard Nerds', ...body });
    if (res.status !== 201) throw new Error(`createSquad: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  }

  async requestJoin(member: TestMember, squadId: string, message?: string): Promise<string> {
    const res = await this.http()
      .post(`/api/squads/${squadId}/request-join`)
      .set(member.auth)
      .send(message === undefined ? {} : { message });
    if (res.status !== 201) throw new Error(`requestJoin: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id as string;
  }

  decide(manager: TestMember, squadId: string, requestId: string, action: string) {
    return this.http().post(`/api/squads/${squadId}/join-requests/${requestId}`).set(manager.auth).send({ action });
  }

  /** Makes `member` a member of the squad through request and approval. */
  async join(admin: TestMember, member: TestMember, squadId: string): Promise<void> {
    const requestId = await this.requestJoin(member, squadId);
    const res = await this.decide(admin, squadId, requestId, 'approve');
    if (res.status !== 200) throw new Error(`join: ${res.status} ${JSON.stringify(res.body)}`);
  }

  setRole(admin: TestMember, squadId: string, userId: string, role: string) {
    return this.http().put(`/api/squads/${squadId}/members/${userId}`).set(admin.auth).send({ role });
  }

  close(): Promise<void> {
    return this.svc.close();
  }
}
