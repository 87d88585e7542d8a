import { Inject, Injectable } from '@nestjs/common';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { PrivacyDoc, privacyCollection, PrivacyProfile } from './privacy.collection';
import { RESTRICTED_ACCOUNTS } from './viewer-context.collection';
import { ViewerContextService, ViewerScope } from './viewer-context.service';

/**
 * Who may see whose reviews (docs/decisions/social.md, Privacy): the author, and for a
 * friends-only or private account only its approved followers; everyone for a public one.
 * A block either way hides each from the other. A mute hides the muted member from the muter's
 * lists only (hiddenInLists); the muted member's own profile and a review opened by its link still show.
 * Follows, blocks, mutes and which accounts are not public come from memory (ViewerContextService).
 */
@Injectable()
export class AudienceService {
  private readonly privacy: Collection<PrivacyDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly contexts: ViewerContextService,
  ) {
    this.privacy = store.collection(privacyCollection);
  }

  async isBlockedEitherWay(a: string, b: string): Promise<boolean> {
    return (await this.contexts.of(a)).context.blocked.has(b);
  }

  /** Members the viewer blocked or who blocked the viewer. */
  async blockedWith(viewerId: string): Promise<string[]> {
    return [...(await this.contexts.of(viewerId)).context.blocked];
  }

  /** Members whose comments the viewer's comment lists leave out: blocked either way or muted. */
  async silencedFor(viewerId: string): Promise<string[]> {
    const { context } = await this.contexts.of(viewerId);
    return [...new Set([...context.blocked, ...context.muted])];
  }

  /** Authors left out of lists that mix authors (feed, product pages, saved): hidden ones and muted ones. */
  async hiddenInLists(viewerId: string): Promise<string[]> {
    const scope = await this.contexts.of(viewerId);
    return [...new Set([...hiddenIn(viewerId, scope), ...scope.context.muted])];
  }

  /**
   * Idempotent and order-proof: only a setting at least as new as the stored one applies. A move
   * between public and not public changes the shared set of restricted accounts.
   */
  async setPrivacy(userId: string, profile: PrivacyProfile, asOf: string): Promise<void> {
    const wasRestricted = await this.isRestricted(userId);
    const { matched } = await this.privacy.updateOne(
      { _id: userId, as_of: { $lte: asOf } },
      { $set: { privacy_profile: profile, as_of: asOf } },
    );
    if (matched === 0) {
      try {
        await this.privacy.insert({ _id: userId, privacy_profile: profile, as_of: asOf });
      } catch (err) {
        // A newer setting is stored already.
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
    if ((await this.isRestricted(userId)) !== wasRestricted) await this.contexts.touch(RESTRICTED_ACCOUNTS);
  }

  async isRestricted(userId: string): Promise<boolean> {
    const doc = await this.privacy.findById(userId);
    return doc !== null && doc.privacy_profile !== 'public';
  }

  async canSee(viewerId: string, authorId: string): Promise<boolean> {
    if (viewerId === authorId) return true;
    const { context, restricted } = await this.contexts.of(viewerId);
    if (context.blocked.has(authorId)) return false;
    return !restricted.has(authorId) || context.follows.has(authorId);
  }

  /** Authors whose reviews the viewer may not see: blocked either way, and restricted accounts the viewer does not follow. */
  async hiddenAuthors(viewerId: string): Promise<string[]> {
    return hiddenIn(viewerId, await this.contexts.of(viewerId));
  }
}

function hiddenIn(viewerId: string, { context, restricted }: ViewerScope): string[] {
  const unfollowed = [...restricted].filter((id) => id !== viewerId && !context.follows.has(id));
  return [...new Set([...context.blocked, ...unfollowed])];
}
