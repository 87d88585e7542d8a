import { Injectable } from '@nestjs/common';
import { cardText, LinkCardView } from '@app/contracts';
import { SocialException } from '../social.errors';
import { ProfilesService } from '../profiles/profiles.service';

/**
 * A member's link preview for anyone (no viewer): public profiles only. A profile that is not public
 * has none (403, so the gateway serves its page and the app says it is private); an unknown one is a 404.
 */
@Injectable()
export class LinkCardsService {
  constructor(private readonly profiles: ProfilesService) {}

  async profile(username: string): Promise<LinkCardView> {
    const p = await this.profiles.view('', username);
    if (p.privacy_profile !== 'public') throw new SocialException('FORBIDDEN', 'This profile is not public');
    const counts = `${p.reviews_count} review${p.reviews_count === 1 ? '' : 's'}, ${p.followers_count} follower${p.followers_count === 1 ? '' : 's'}`;
    return {
      type: 'profile',
      title: `${p.display_name} (@${p.username})`,
      description: cardText(p.bio ? `${p.bio} · ${counts}` : counts),
      image: p.profile_image_url || null,
      image_alt: p.profile_image_url ? p.display_name : null,
      rating: null,
      person: { name: p.display_name || p.username, username: p.username, bio: p.bio || null },
    };
  }
}
