import { newId } from '@app/store';
import { probeStore, TestService } from '@app/testing';
import { Member, registerMember, startSocial } from '../social.fixture';
import { RelationsService } from '../relations/relations.service';
import { FollowImportService } from './follow-import.service';

describe('follows import (social)', () => {
  let svc: TestService;
  let importer: FollowImportService;
  let m: Member[];
  let shy: Member;

  beforeAll(async () => {
    svc = await startSocial();
    importer = svc.app.get(FollowImportService);
    m = [];
    for (const name of ['Ada', 'Bora', 'Cem', 'Deniz', 'Ece']) m.push(await registerMember(svc, name));
    shy = await registerMember(svc, 'Shy', 'private');
    expect((await svc.http().post(`/api/users/${m[4].id}/block`).set(m[3].auth)).status).toBeLessThan(300);
  });

  afterAll(() => svc.close());

  const counts = async (member: Member) => {
    const res = await svc.http().get(`/api/users/profile/${member.username}`).set(member.auth);
    return [res.body.data.followers_count, res.body.data.following_count];
  };
  const pair = (a: Member, b: Member | string) => ({ follower_id: a.id, followee_id: typeof b === 'string' ? b : b.id });

  it("answers each row as the route would, in order, with the batch's counters and events", async () => {
    const probe = probeStore(svc.store);
    const report = await importer.import([
      pair(m[0], m[1]),
      pair(m[0], m[0]),
      pair(m[2], m[1]),
      pair(m[0], m[1]),
      pair(m[0], shy),
      pair(m[1], shy),
      pair(m[0], shy),
      pair(m[3], m[4]),
      pair(m[4], m[3]),
      pair(m[0], newId()),
      pair(m[1], m[0]),
    ]);
    probe.stop();
    expect(report.imported).toEqual([
      { status: 'following' },
      null,
      { status: 'following' },
      null,
      { status: 'pending' },
      { status: 'pending' },
      { status: 'pending' },
      null,
      null,
      null,
      { status: 'following' },
    ]);
    expect(report.rejected.map((r) => [r.index, r.status, r.message])).toEqual([
      [1, 400, 'You cannot follow yourself'],
      [3, 409, 'You are already following this user'],
      [7, 403, 'You cannot follow this user'],
      [8, 403, 'You cannot follow this user'],
      [9, 404, 'User not found'],
    ]);
    // A handful for the batch, not several per row; under test every event's proof is read back (5 of the reads).
    expect(probe.reads - 5).toBeLessThanOrEqual(6);
    expect(probe.writes).toBeLessThanOrEqual(8);
    expect(await counts(m[0])).toEqual([1, 1]);
    expect(await counts(m[1])).toEqual([2, 1]);
    expect(await counts(m[2])).toEqual([0, 1]);
    expect(await counts(shy)).toEqual([0, 0]);
    await svc.settle();
    // Marked imported: a relationship moved over, which nobody is emailed about.
    expect(svc.emitted('follow.created')).toEqual([
      { followerId: m[0].id, followeeId: m[1].id, imported: true },
      { followerId: m[2].id, followeeId: m[1].id, imported: true },
      { followerId: m[1].id, followeeId: m[0].id, imported: true },
    ]);
    expect(svc.emitted('follow.requested')).toEqual([
      { followerId: m[0].id, followeeId: shy.id, imported: true },
      { followerId: m[1].id, followeeId: shy.id, imported: true },
    ]);
  });

  it('goes row by row when the check after the insert finds a block that landed meanwhile, leaving nothing of the batch', async () => {
    const relations = svc.app.get(RelationsService);
    const other = await registerMember(svc, 'Other');
    const real = RelationsService.prototype.blockedPairs;
    const spy = jest
      .spyOn(relations, 'blockedPairs')
      .mockImplementationOnce((pairs) => real.call(relations, pairs))
      .mockImplementationOnce(async (pairs) => new Set([`${pairs[0][0]}:${pairs[0][1]}`]));
    const before = svc.emitted('follow.created').length;
    const report = await importer.import([pair(m[2], m[3]), pair(m[2], other)]);
    expect(spy).toHaveBeenCalledTimes(2); // the batch's checks before and after its insert; the rows then took the route's path
    spy.mockRestore();
    expect(report).toEqual({ imported: [{ status: 'following' }, { status: 'following' }], rejected: [] });
    expect(await counts(m[2])).toEqual([0, 3]);
    expect(await counts(other)).toEqual([1, 0]);
    await svc.settle();
    expect(svc.emitted('follow.created').slice(before)).toEqual([
      { followerId: m[2].id, followeeId: m[3].id, imported: true },
      { followerId: m[2].id, followeeId: other.id, imported: true },
    ]);
  });
});
