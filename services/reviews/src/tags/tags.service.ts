import { Inject, Injectable } from '@nestjs/common';
import { tagKey, TagView } from '@app/contracts';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { ViewerContextService } from '../audience/viewer-context.service';
import { TagFollowDoc, tagFollowsCollection } from './tag-follow.collection';

/** Followed tags, per member: following twice or unfollowing a tag not followed changes nothing. */
@Injectable()
export class TagsService {
  private readonly follows: Collection<TagFollowDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly contexts: ViewerContextService,
  ) {
    this.follows = store.collection(tagFollowsCollection);
  }

  async view(userId: string, tag: string): Promise<TagView> {
    const key = tagKey(tag);
    return { tag: key, following: (await this.follows.findById(`${userId}:${key}`)) !== null };
  }

  async follow(userId: string, tag: string): Promise<TagView> {
    const key = tagKey(tag);
    try {
      await this.follows.insert({ _id: `${userId}:${key}`, user_id: userId, tag: key, created_at: new Date().toISOString() });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    await this.contexts.touch(userId);
    return { tag: key, following: true };
  }

  async unfollow(userId: string, tag: string): Promise<TagView> {
    const key = tagKey(tag);
    await this.follows.deleteOne({ _id: `${userId}:${key}` });
    await this.contexts.touch(userId);
    return { tag: key, following: false };
  }

}
