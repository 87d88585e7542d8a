import { Injectable } from '@nestjs/common';
import { NO_FOLLOW_STATUS, PageWindow, PersonRow, SuggestionRow } from '@app/contracts';
import { ProfileDoc, profileSearchKey } from '../profiles/profile.collection';
import { ProfilesService, toCard } from '../profiles/profiles.service';
import { isSuggestible } from '../relations/privacy';
import { RelationsService } from '../relations/relations.service';

/** How many friends-of-friends edges suggestions look at: bounded work for very connected members. */
const FRIENDS_OF_FRIENDS_CAP = 5000;

/** User search and People to Follow. Both leave out oneself and anyone blocked either way. */
@Injectable()
export class DiscoveryService {
  constructor(
    private readonly profiles: ProfilesService,
    private readonly relations: RelationsService,
  ) {}

  async search(viewerId: string, text: string | undefined, window: PageWindow): Promise<{ items: PersonRow[]; total: number }> {
    const hidden = await this.relations.hiddenIds(viewerId);
    const filter: Record<string, unknown> = { _id: { $nin: [viewerId, ...hidden] } };
    if (text) Object.assign(filter, profileSearchKey.matching(text));
    const [docs, total] = await Promise.all([
      this.profiles.find(filter, { sort: { followers_count: -1, username: 1 }, skip: window.skip, limit: window.limit }),
      this.profiles.count(filter),
    ]);
    return { items: await this.withStatus(viewerId, docs), total };
  }

  /**
   * People to Follow: not followed or requested yet, not blocked either way, not private.
   * Most relevant first: followed by more of the people the viewer follows, then more followers.
   */
  async suggestions(viewerId: string, limit: number): Promise<SuggestionRow[]> {
    const [hidden, known] = await Promise.all([this.relations.hiddenIds(viewerId), this.relations.followeeIds(viewerId, true)]);
    const excluded = [viewerId, ...hidden, ...known];
    const mutual = await this.relations.followedByFollowees(viewerId, excluded, FRIENDS_OF_FRIENDS_CAP);
    const ranked = [...(await this.profiles.byIds([...mutual.keys()])).values()]
      .filter((d) => isSuggestible(d.settings.privacy_profile))
      .sort((a, b) => (mutual.get(b._id) ?? 0) - (mutual.get(a._id) ?? 0) || b.followers_count - a.followers_count)
      .slice(0, limit);
    if (ranked.length < limit) {
      const fill = await this.profiles.find(
        { _id: { $nin: [...excluded, ...ranked.map((d) => d._id)] }, 'settings.privacy_profile': { $ne: 'private' } },
        { sort: { followers_count: -1, created_at: -1 }, limit: limit - ranked.length },
      );
      ranked.push(...fill);
    }
    const rows = await this.withStatus(viewerId, ranked);
    return rows.map((row) => ({ ...row, mutual_count: mutual.get(row.id) ?? 0 }));
  }

  private async withStatus(viewerId: string, docs: ProfileDoc[]): Promise<PersonRow[]> {
    const status = await this.relations.statusMany(viewerId, docs.map((d) => d._id));
    return docs.map((d) => ({
      ...toCard(d),
      bio: d.bio,
      followers_count: d.followers_count,
      follow_status: status.get(d._id) ?? { ...NO_FOLLOW_STATUS },
    }));
  }
}
