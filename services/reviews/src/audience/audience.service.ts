import { Inject, Injectable } from '@nestjs/common';
import { BlocksReadModel, MutesReadModel } from '@app/platform';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { FollowGraphService } from '../read-models/follow-graph.service';
import { PrivacyDoc, privacyCollection, PrivacyProfile } from './privacy.collection';
import { ViewerContextService } from './viewer-context.service';

/**
 * Who may see whose reviews (docs/decisions/social.md, Privacy): the author, and for a
 * friends-only or private account only its approved followers; everyone for a public one.
 * A block either way hides each from the other. A mute hides the muted member from the muter's
 * lists only (hiddenInLists); the muted member's own profile and a review opened by its link still show.
 */
@Injectable()
export class AudienceService {
  private readonly privacy: Collection<PrivacyDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly graph: FollowGraphService,
    private readonly blocks: BlocksReadModel,
    private readonly mutes: MutesReadModel,
    private readonly contexts: ViewerContextService,
  ) {
    this.privacy = store.collection(privacyCollection);
  }

  isBlockedEitherWay(a: string, b: string): Promise<boolean> {
    return this.blocks.blockedEitherWay(a, [b]);
  }

  /** Members the viewer blocked or who blocked the viewer. */
  blockedWith(viewerId: string): Promise<string[]> {
    return this.blocks.hiddenFrom(viewerId);
  }

  /** Members the viewer muted (one way: the muted never lose sight of the muter). */
  mutedBy(viewerId: string): Promise<string[]> {
    return this.mutes.mutedBy(viewerId);
  }

  /** Members whose comments the viewer's comment lists leave out: blocked either way or muted. */
  async silencedFor(viewerId: string): Promise<string[]> {
    const [blocked, muted] = await Promise.all([this.blockedWith(viewerId), this.mutedBy(viewerId)]);
    return [...new Set([...blocked, ...muted])];
  }

  /**
   * Authors left out of lists that mix authors (feed, product pages, saved): hidden ones and muted
   * ones. Whom the viewer follows and mutes comes from their context in memory.
   */
  async hiddenInLists(viewerId: string): Promise<string[]> {
    const { context } = await this.contexts.of(viewerId);
    const hidden = await this.hiddenAuthors(viewerId, context.follows);
    return [...new Set([...hidden, ...context.muted])];
  }

  /** Idempotent and order-proof: only a setting at least as new as the stored one applies. */
  async setPrivacy(userId: string, profile: PrivacyProfile, asOf: string): Promise<void> {
    const { matched } = await this.privacy.updateOne(
      { _id: userId, as_of: { $lte: asOf } },
      { $set: { privacy_profile: profile, as_of: asOf } },
    );
    if (matched > 0) return;
    try {
      await this.privacy.insert({ _id: userId, privacy_profile: profile, as_of: asOf });
    } catch (err) {
      // A newer setting is stored already.
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  async isRestricted(userId: string): Promise<boolean> {
    const doc = await this.privacy.findById(userId);
    return doc !== null && doc.privacy_profile !== 'public';
  }

  async canSee(viewerId: string, authorId: string): Promise<boolean> {
    if (viewerId === authorId) return true;
    if (await this.isBlockedEitherWay(viewerId, authorId)) return false;
    if (!(await this.isRestricted(authorId))) return true;
    return this.graph.follows(viewerId, authorId);
  }

  /**
   * Authors whose reviews the viewer may not see: blocked either way, and restricted accounts the
   * viewer does not follow. Computed per request, so its cost grows with the number of non-public accounts.
   */
  async hiddenAuthors(viewerId: string, follows?: ReadonlySet<string>): Promise<string[]> {
    const [blocked, restricted] = await Promise.all([
      this.blockedWith(viewerId),
      this.privacy.find({ privacy_profile: { $ne: 'public' }, _id: { $ne: viewerId } }, { projection: { _id: 1 } }),
    ]);
    const followed = follows ?? new Set(await this.graph.followedAmong(viewerId, restricted.map((d) => d._id)));
    const unfollowed = restricted.map((d) => d._id).filter((id) => !followed.has(id));
    return [...new Set([...blocked, ...unfollowed])];
  }
}
