import { PrivacyProfile } from '@app/contracts';
import { newId } from '@app/store';
import { createTestService, TestService } from '@app/testing';
import { socialService } from './social.service-definition';

export interface Member {
  id: string;
  username: string;
  auth: { Authorization: string };
}

export function startSocial(): Promise<TestService> {
  return createTestService(socialService);
}

let serial = 0;

/** A member as the auth service would announce them, with a token for them; optionally not public. */
export async function registerMember(svc: TestService, name: string, privacy: PrivacyProfile = 'public'): Promise<Member> {
  const id = newId();
  const username = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_${++serial}`;
  await svc.publish('user.registered', {
    userId: id,
    username,
    email: `${username}@example.com`,
    display_name: name,
    name,
    profile_image_url: null,
    created_at: new Date().toISOString(),
  });
  const member = { id, username, auth: svc.authHeader({ id, username }) };
  if (privacy !== 'public') {
    const res = await svc.http().put('/api/users/settings').set(member.auth).send({ privacy_profile: privacy });
    if (res.status !== 200) throw new Error(`could not make ${name} ${privacy}: ${res.status}`);
  }
  return member;
}
