import { Controller, Get, Module } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { createTestService, TEST_JWT_SECRET, TestService } from '@app/testing';
import { CurrentUser, AuthenticatedUser } from '../auth/current-user.decorator';
import { RequireRole } from '../auth/require-role.decorator';
import { blocksCollection } from './blocks.collection';
import { BlocksModule } from './blocks.module';
import { BlocksReadModel } from './blocks.service';
import { memberStandingCollection } from './member-standing.collection';
import { MemberStanding } from './member-standing.service';

@Controller('whoami')
class WhoAmIController {
  @Get()
  whoAmI(@CurrentUser() user: AuthenticatedUser) {
    return { id: user.id, role: user.role ?? 'member' };
  }

  @RequireRole('moderator')
  @Get('staff')
  staff() {
    return { ok: true };
  }
}

@Module({ controllers: [WhoAmIController] })
class WhoAmIModule {}

describe('member standing: a deleted member leaves nothing behind (issue 31 §2)', () => {
  let svc: TestService;
  let blocks: BlocksReadModel;

  beforeAll(async () => {
    svc = await createTestService({
      name: 'standing',
      collections: [blocksCollection],
      imports: [BlocksModule, WhoAmIModule],
    });
    blocks = svc.app.get(BlocksReadModel);
    await svc.publish('block.created', { blockerId: 'gone', blockedId: 'ali' }, 'gone', 'gone');
    await svc.publish('user.deleted', { userId: 'gone' }, 'gone', 'gone');
  });

  afterAll(() => svc.close());

  it('drops an event that adds something by or about the deleted member, and lets removals and others through', async () => {
    await svc.publish('block.created', { blockerId: 'gone', blockedId: 'burak' }, 'gone', 'gone');
    // Named in the payload only (a test publishes with no actor): still theirs.
    await svc.publish('mute.created', { muterId: 'ali', mutedId: 'gone' }, 'ali', 'ali');
    await svc.publish('block.created', { blockerId: 'ali', blockedId: 'gone' }, 'ali', 'ali');
    await svc.publish('block.created', { blockerId: 'ali', blockedId: 'burak' }, 'ali', 'ali');
    expect(await blocks.blockedEitherWay('gone', ['burak'])).toBe(false);
    expect(await blocks.blockedEitherWay('ali', ['burak'])).toBe(true);
    expect(await svc.store.collection(blocksCollection).count({ blocked_id: 'gone' })).toBe(0);
    // Removals of theirs still apply (their erasure elsewhere sends some).
    const event = { id: 'e1', version: 1, occurredAt: new Date().toISOString(), key: 'gone', actorId: 'gone' };
    const standing = svc.app.get(MemberStanding);
    expect(standing.isLateFromDeleted({ ...event, type: 'block.removed', payload: { blockerId: 'gone', blockedId: 'ali' } })).toBe(false);
    expect(standing.isLateFromDeleted({ ...event, type: 'follow.removed', payload: { followerId: 'gone', followeeId: 'ali', wasPending: false } })).toBe(false);
    expect(standing.isLateFromDeleted({ ...event, type: 'review.liked', payload: { reviewId: 'r', reviewAuthorId: 'ali', userId: 'gone', likeCount: 1 } })).toBe(true);
  });

  it("refuses the deleted member's still-signed token with 401, and serves others", async () => {
    const gone = await svc.http().get('/api/whoami').set(svc.authHeader({ id: 'gone', username: 'gone' }));
    expect([gone.status, gone.body.code]).toEqual([401, 'ACCOUNT_GONE']);
    const ali = await svc.http().get('/api/whoami').set(svc.authHeader({ id: 'ali', username: 'ali' }));
    expect([ali.status, ali.body.data]).toEqual([200, { id: 'ali', role: 'member' }]);
  });

  it('is rebuilt at boot from its rows, and a second replica learns of a deletion another one handled', async () => {
    expect(await svc.store.collection(memberStandingCollection).findById('gone')).toMatchObject({ deleted: true });
    const replica = new MemberStanding(svc.store, svc.transport);
    await replica.onApplicationBootstrap();
    try {
      expect(replica.isDeleted('gone')).toBe(true);
      expect(replica.isDeleted('ali')).toBe(false);
      await svc.publish('user.deleted', { userId: 'ali' }, 'ali', 'ali');
      expect(replica.isDeleted('ali')).toBe(true);
    } finally {
      await replica.onApplicationShutdown();
    }
  });

  describe('sessions and roles take effect at once (issue 31 §1)', () => {
    const token = (id: string, ver: number, role?: 'moderator' | 'admin') => {
      const jwt = new JwtService({ secret: TEST_JWT_SECRET, signOptions: { algorithm: 'HS256', expiresIn: 600 } });
      return { Authorization: `Bearer ${jwt.sign({ sub: id, username: id, ver, ...(role && { role }) })}` };
    };

    it('refuses a token below the member\'s session version, and keeps the highest version whatever the order', async () => {
      expect((await svc.http().get('/api/whoami').set(token('cem', 0))).status).toBe(200);
      await svc.publish('auth.sessions_revoked', { userId: 'cem', version: 2 }, 'cem', 'cem');
      const old = await svc.http().get('/api/whoami').set(token('cem', 1));
      expect([old.status, old.body.code]).toEqual([401, 'INVALID_TOKEN']);
      expect((await svc.http().get('/api/whoami').set(token('cem', 2))).status).toBe(200);
      // A redelivered older revocation lowers nothing, in memory or in the row.
      await svc.publish('auth.sessions_revoked', { userId: 'cem', version: 1 }, 'cem', 'cem');
      expect((await svc.http().get('/api/whoami').set(token('cem', 1))).status).toBe(401);
      expect(await svc.store.collection(memberStandingCollection).findById('cem')).toMatchObject({ session_version: 2 });
    });

    it('reads the role from the latest announcement, not the token: a promotion and a demotion apply on the next request', async () => {
      const dana = token('dana', 0);
      expect((await svc.http().get('/api/whoami/staff').set(dana)).status).toBe(403);
      await svc.publish('moderation.role_changed', { userId: 'dana', role: 'moderator' }, 'dana', 'root');
      expect((await svc.http().get('/api/whoami').set(dana)).body.data).toEqual({ id: 'dana', role: 'moderator' });
      expect((await svc.http().get('/api/whoami/staff').set(dana)).status).toBe(200);
      // A token signed while Dana was a moderator does not outlive the demotion.
      const modToken = token('dana', 0, 'moderator');
      await svc.publish('moderation.role_changed', { userId: 'dana', role: 'member' }, 'dana', 'root');
      expect((await svc.http().get('/api/whoami/staff').set(modToken)).status).toBe(403);
      // The first account's role comes with its registration.
      await svc.publish('user.registered', { userId: 'root', username: 'root', email: 'root@example.com', display_name: 'Root', name: 'Root', profile_image_url: null, created_at: new Date().toISOString(), role: 'admin' });
      expect((await svc.http().get('/api/whoami').set(token('root', 0))).body.data).toEqual({ id: 'root', role: 'admin' });
    });

    it('rebuilds cut-offs and roles at boot', async () => {
      const replica = new MemberStanding(svc.store, svc.transport);
      await replica.onApplicationBootstrap();
      try {
        expect([replica.sessionVersion('cem'), replica.roleOf('dana'), replica.roleOf('root'), replica.roleOf('nobody')]).toEqual([2, 'member', 'admin', undefined]);
      } finally {
        await replica.onApplicationShutdown();
      }
    });
  });
});
