import { createTestService, probeStore, TestService } from '@app/testing';
import { defineCollection } from '@app/store';
import { BlocksModule } from './blocks.module';
import { blocksCollection } from './blocks.collection';
import { BlocksReadModel } from './blocks.service';
import { mutesCollection } from './mutes.collection';
import { MutesModule } from './mutes.module';
import { MutesReadModel } from './mutes.service';
import { relationVersionsCollection } from './relation-versions';
import { StoredUserCard, userCardsCollection } from './user-cards.collection';
import { UserCardsModule } from './user-cards.module';
import { cardFromToken, UserCardsReadModel } from './user-cards.service';

const registered = (userId: string, username: string) => ({
  userId,
  username,
  display_name: username.toUpperCase(),
  name: username,
  email: `${username}@example.com`,
  profile_image_url: null,
  created_at: '2030-01-01T00:00:00.000Z',
});
const updated = (userId: string, username: string, display_name: string, profile_image_url: string | null) => ({
  userId,
  username,
  display_name,
  bio: '',
  profile_image_url,
});

describe('shared read models', () => {
  let svc: TestService;
  let cards: UserCardsReadModel;
  let blocks: BlocksReadModel;
  let mutes: MutesReadModel;

  beforeAll(async () => {
    svc = await createTestService({
      name: 'read-models',
      collections: [userCardsCollection, blocksCollection, mutesCollection],
      imports: [UserCardsModule.forRoot({ placeholder: { username: '', display_name: 'Unknown member' } }), BlocksModule, MutesModule],
    });
    cards = svc.app.get(UserCardsReadModel);
    blocks = svc.app.get(BlocksReadModel);
    mutes = svc.app.get(MutesReadModel);
  });

  afterAll(() => svc.close());

  describe('user cards', () => {
    it('keeps the card from user.registered and the latest user.updated, once per member', async () => {
      await svc.publish('user.registered', registered('u1', 'ayse'));
      await svc.publish('user.updated', updated('u1', 'ayse2', 'Ayse K', '/a.png'));
      await svc.publish('user.updated', updated('u1', 'ayse2', 'Ayse K', '/a.png'));
      expect(await cards.card('u1')).toEqual({ id: 'u1', username: 'ayse2', display_name: 'Ayse K', profile_image_url: '/a.png' });
      expect(await svc.store.collection(userCardsCollection).count({ _id: 'u1' })).toBe(1);
    });

    it('keeps the newest card when an older user.updated arrives last (a late delivery, issue 46)', async () => {
      const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s)).toISOString();
      const deliver = (payload: ReturnType<typeof updated>, occurredAt: string) =>
        svc.transport.publish({ id: `late-${occurredAt}`, type: 'user.updated', version: 1, occurredAt, actorId: null, key: 'u9', payload } as never).then(() => svc.settle());
      await deliver(updated('u9', 'deniz', 'Deniz New', null), at(20));
      await deliver(updated('u9', 'deniz', 'Deniz Old', null), at(10));
      expect((await cards.card('u9'))?.display_name).toBe('Deniz New');
      await deliver(updated('u9', 'deniz', 'Deniz Newest', null), at(30));
      expect((await cards.card('u9'))?.display_name).toBe('Deniz Newest');
    });

    it('takes a run of registrations in one insert, and a member seen twice, one with a newer card or a tombstone as one by one', async () => {
      const at = (s: number) => new Date(Date.UTC(2020, 0, 1, 0, 0, s)).toISOString(); // before the events svc.publish stamps now
      const envelope = (userId: string, username: string, occurredAt: string) =>
        ({ id: `${userId}-${username}`, type: 'user.registered', version: 1, occurredAt, actorId: null, key: userId, payload: registered(userId, username) }) as never;
      const deliverTogether = async (events: never[]) => {
        events.forEach((event) => void svc.transport.publish(event)); // one tick: one group, one run
        await svc.settle();
      };
      await svc.publish('user.updated', updated('run-newer', 'newer', 'Newer', null)); // stamped now: newer than the run's cards
      await svc.publish('user.deleted', { userId: 'run-gone' });
      const fresh = Array.from({ length: 10 }, (_, i) => envelope(`run-${i}`, `member${i}`, at(1)));
      const probe = probeStore(svc.store);
      try {
        await deliverTogether(fresh);
        expect(probe.writes).toBeLessThanOrEqual(2); // the cards, the inbox
      } finally {
        probe.stop();
      }
      await deliverTogether([envelope('run-twice', 'first', at(1)), envelope('run-twice', 'second', at(2)), envelope('run-newer', 'older', at(1)), envelope('run-gone', 'late', at(1))]);
      expect((await cards.cardsById(['run-0', 'run-9', 'run-twice', 'run-newer'])).get('run-9')?.username).toBe('member9');
      expect((await cards.card('run-twice'))?.username).toBe('second');
      expect((await cards.card('run-newer'))?.username).toBe('newer');
      expect(await cards.deletedIds(['run-gone', 'run-0'])).toEqual(['run-gone']);
    });

    it('gives every id a card, the configured placeholder for unknown ones, in the order asked', async () => {
      await svc.publish('user.registered', registered('u2', 'bora'));
      const map = await cards.cardsById(['nobody', 'u2', 'nobody']);
      expect([...map.keys()]).toEqual(['nobody', 'u2']);
      expect(map.get('nobody')).toEqual({ id: 'nobody', username: '', display_name: 'Unknown member', profile_image_url: null });
      expect(map.get('u2')).toMatchObject({ username: 'bora', display_name: 'BORA' });
      expect(await cards.cardsById([])).toEqual(new Map());
    });

    it('names unknown ids and leaves them out of the known cards and card()', async () => {
      expect(await cards.unknownIds(['u2', 'ghost', 'u1'])).toEqual(['ghost']);
      expect([...(await cards.knownCards(['ghost', 'u2'])).keys()]).toEqual(['u2']);
      expect(await cards.card('ghost')).toBeNull();
    });

    it('keeps an ensured card only until the real one arrives, and never over a known one', async () => {
      await cards.ensureCard(cardFromToken({ id: 'u3', username: 'cem' }));
      await cards.ensureCard({ id: 'u2', username: 'wrong', display_name: 'wrong', profile_image_url: null });
      expect((await cards.card('u2'))?.username).toBe('bora');
      expect((await cards.card('u3'))?.display_name).toBe('cem');
      await svc.publish('user.registered', registered('u3', 'cem'));
      expect((await cards.card('u3'))?.display_name).toBe('CEM');
    });

    it('turns a deleted member into a bare tombstone card that a late update or a redelivery never changes', async () => {
      await svc.publish('user.registered', registered('u4', 'deniz'));
      await svc.publish('user.deleted', { userId: 'u4' });
      await svc.publish('user.updated', updated('u4', 'deniz', 'Deniz', '/d.png'));
      await svc.publish('user.deleted', { userId: 'u4' });
      await cards.ensureCard(cardFromToken({ id: 'u4', username: 'deniz' }));
      expect(await cards.card('u4')).toEqual({ id: 'u4', username: '', display_name: 'Deleted member', profile_image_url: null });
      expect(await cards.isDeleted('u4')).toBe(true);
      expect(await cards.isDeleted('u2')).toBe(false);
      expect(await cards.unknownIds(['u2', 'u4'])).toEqual(['u4']);
    });
    it('tells deleted and unknown members from the cached rows by id: checked on every message sent, read from memory', async () => {
      expect(await cards.deletedIds(['u2', 'u4', 'ghost'])).toEqual(['u4']);
      const probe = probeStore(svc.store);
      try {
        expect(await cards.deletedIds(['u4', 'u2'])).toEqual(['u4']);
        expect(await cards.unknownIds(['u2', 'u4', 'ghost'])).toEqual(['u4', 'ghost']);
        expect(await cards.deletedIds([])).toEqual([]);
        expect(probe.reads).toBe(0);
      } finally {
        probe.stop();
      }
    });
  });

  describe('blocks', () => {
    it('records a block once however often it is announced, and forgets it on block.removed', async () => {
      await svc.publish('block.created', { blockerId: 'a', blockedId: 'b' });
      await svc.publish('block.created', { blockerId: 'a', blockedId: 'b' });
      expect(await svc.store.collection(blocksCollection).find({})).toEqual([{ _id: 'a:b', blocker_id: 'a', blocked_id: 'b' }]);
      expect(await blocks.blockedEitherWay('b', ['x', 'a'])).toBe(true);
      await svc.publish('block.removed', { blockerId: 'a', blockedId: 'b' });
      await svc.publish('block.removed', { blockerId: 'a', blockedId: 'b' });
      expect(await blocks.blockedEitherWay('b', ['a'])).toBe(false);
    });

    it('answers both ways for blockedEitherWay, blockedAmong and hiddenFrom, one way for isBlockedByAny', async () => {
      await svc.publish('block.created', { blockerId: 'p', blockedId: 'q' });
      await svc.publish('block.created', { blockerId: 'r', blockedId: 'p' });
      expect(await blocks.blockedEitherWay('p', ['q'])).toBe(true);
      expect(await blocks.blockedEitherWay('q', ['p'])).toBe(true);
      expect(await blocks.blockedEitherWay('q', ['r'])).toBe(false);
      expect(await blocks.blockedEitherWay('p', [])).toBe(false);
      expect(await blocks.blockedAmong('p', ['q', 'r', 's'])).toEqual(new Set(['q', 'r']));
      expect((await blocks.hiddenFrom('p')).sort()).toEqual(['q', 'r']);
      expect(await blocks.hiddenFrom('s')).toEqual([]);
      expect(await blocks.isBlockedByAny('q', ['p'])).toBe(true);
      expect(await blocks.isBlockedByAny('p', ['q'])).toBe(false);
      expect(await blocks.isBlockedByAny('q', [])).toBe(false);
      // A run of events asks of many pairs at once: each answers both ways, the cross pairs do not count.
      const blocked = await blocks.blockedPairs([['q', 'p'], ['p', 'r'], ['q', 'r'], ['s', 'p']]);
      expect([blocked('q', 'p'), blocked('p', 'q'), blocked('p', 'r'), blocked('q', 'r'), blocked('s', 'p')]).toEqual([true, true, true, false, false]);
      expect((await blocks.blockedPairs([]))('p', 'q')).toBe(false);
      const fanOut = await blocks.blockedPairs([['q', 'p'], ['r', 'p'], ['s', 'p']]);
      expect([fanOut('q', 'p'), fanOut('p', 'r'), fanOut('s', 'p'), fanOut('q', 'r')]).toEqual([true, true, false, false]);
    });

    it('counts and removes rows kept from before the shared model, whatever their id', async () => {
      const rows = svc.store.collection(blocksCollection);
      await rows.insert({ _id: 'legacy-1', blocker_id: 'm', blocked_id: 'n' });
      await rows.insert({ _id: 'n>o', blocker_id: 'n', blocked_id: 'o' });
      expect(await blocks.blockedAmong('n', ['m', 'o'])).toEqual(new Set(['m', 'o']));
      await svc.publish('block.created', { blockerId: 'm', blockedId: 'n' });
      expect(await rows.count({ blocker_id: 'm', blocked_id: 'n' })).toBe(1);
      await svc.publish('block.removed', { blockerId: 'm', blockedId: 'n' });
      await svc.publish('block.removed', { blockerId: 'n', blockedId: 'o' });
      expect(await blocks.hiddenFrom('n')).toEqual([]);
    });
  });

  describe('mutes', () => {
    it('records a mute once however often it is announced, one way only, and forgets it on mute.removed', async () => {
      await svc.publish('mute.created', { muterId: 'a', mutedId: 'b' });
      await svc.publish('mute.created', { muterId: 'a', mutedId: 'b' });
      await svc.publish('mute.created', { muterId: 'c', mutedId: 'b' });
      expect(await svc.store.collection(mutesCollection).count({ muter_id: 'a' })).toBe(1);
      expect(await mutes.mutedBy('a')).toEqual(['b']);
      expect(await mutes.mutedBy('b')).toEqual([]);
      expect(await mutes.isMuted('a', 'b')).toBe(true);
      expect(await mutes.isMuted('b', 'a')).toBe(false);
      expect(await mutes.mutersAmong('b', ['a', 'c', 'd'])).toEqual(new Set(['a', 'c']));
      expect(await mutes.mutersAmong('b', [])).toEqual(new Set());
      const muted = await mutes.mutedPairs([['a', 'b'], ['b', 'a'], ['d', 'b'], ['c', 'b']]);
      expect([muted('a', 'b'), muted('b', 'a'), muted('d', 'b'), muted('c', 'b')]).toEqual([true, false, false, true]);
      expect((await mutes.mutedPairs([]))('a', 'b')).toBe(false);
      const fanOut = await mutes.mutedPairs([['a', 'b'], ['c', 'b'], ['d', 'b']]);
      expect([fanOut('a', 'b'), fanOut('c', 'b'), fanOut('d', 'b'), fanOut('b', 'a')]).toEqual([true, true, false, false]);
      await svc.publish('mute.removed', { muterId: 'a', mutedId: 'b' });
      await svc.publish('mute.removed', { muterId: 'a', mutedId: 'b' });
      expect(await mutes.isMuted('a', 'b')).toBe(false);
      expect(await mutes.mutedBy('a')).toEqual([]);
    });
  });

  describe('a deleted member', () => {
    it('leaves no block or mute on either side, however often user.deleted arrives', async () => {
      await svc.publish('block.created', { blockerId: 'x', blockedId: 'y' });
      await svc.publish('block.created', { blockerId: 'z', blockedId: 'x' });
      await svc.publish('block.created', { blockerId: 'y', blockedId: 'z' });
      await svc.publish('mute.created', { muterId: 'x', mutedId: 'y' });
      await svc.publish('mute.created', { muterId: 'z', mutedId: 'x' });
      await svc.publish('user.deleted', { userId: 'x' });
      await svc.publish('user.deleted', { userId: 'x' });
      expect(await svc.store.collection(blocksCollection).count({ $or: [{ blocker_id: 'x' }, { blocked_id: 'x' }] })).toBe(0);
      expect(await svc.store.collection(mutesCollection).count({ $or: [{ muter_id: 'x' }, { muted_id: 'x' }] })).toBe(0);
      // The relations' versions (issue 46) name the member too: they go with them, the others stay.
      const versions = svc.store.collection(relationVersionsCollection);
      expect(await versions.count({ $or: [{ a: 'x' }, { b: 'x' }] })).toBe(0);
      expect(await versions.count({ a: 'y', b: 'z' })).toBe(1);
      expect(await blocks.hiddenFrom('y')).toEqual(['z']);
    });
  });
});

describe('user cards kept in a collection shared with other fields', () => {
  interface MemberDoc extends StoredUserCard {
    email?: string;
  }
  const members = defineCollection<MemberDoc>('members');
  let svc: TestService;

  beforeAll(async () => {
    svc = await createTestService({ name: 'members', collections: [members], imports: [UserCardsModule.forRoot({ collection: members })] });
  });

  afterAll(() => svc.close());

  it("writes the card beside the row's other fields and treats a row without a card as unknown", async () => {
    const rows = svc.store.collection(members);
    await rows.insert({ _id: 'u9', email: 'dora@example.com' });
    const model = svc.app.get(UserCardsReadModel);
    expect(await model.card('u9')).toBeNull();
    expect((await model.cardsById(['u9'])).get('u9')).toEqual({
      id: 'u9',
      username: 'unknown',
      display_name: 'Unknown User',
      profile_image_url: null,
    });
    await svc.publish('user.updated', updated('u9', 'dora', 'Dora', null));
    expect(await rows.findById('u9')).toEqual({
      _id: 'u9',
      email: 'dora@example.com',
      username: 'dora',
      display_name: 'Dora',
      profile_image_url: null,
      card_at: expect.any(String),
    });
    expect(await model.unknownIds(['u9'])).toEqual([]);
  });

  it("drops the row's other fields (the email) when the member is deleted", async () => {
    const rows = svc.store.collection(members);
    await rows.insert({ _id: 'u10', email: 'eda@example.com', username: 'eda', display_name: 'Eda', profile_image_url: null });
    await svc.publish('user.deleted', { userId: 'u10' });
    expect(await rows.findById('u10')).toEqual({ _id: 'u10', username: '', display_name: 'Deleted member', profile_image_url: null, deleted: true });
  });
});
