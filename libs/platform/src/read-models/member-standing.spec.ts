import { Controller, Get, Module } from '@nestjs/common';
import { createTestService, TestService } from '@app/testing';
import { CurrentUser, AuthenticatedUser } from '../auth/current-user.decorator';
import { blocksCollection } from './blocks.collection';
import { BlocksModule } from './blocks.module';
import { BlocksReadModel } from './blocks.service';
import { memberStandingCollection } from './member-standing.collection';
import { MemberStanding } from './member-standing.service';

@Controller('whoami')
class WhoAmIController {
  @Get()
  whoAmI(@CurrentUser() user: AuthenticatedUser) {
    return { id: user.id };
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
    expect([ali.status, ali.body.data]).toEqual([200, { id: 'ali' }]);
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
});
