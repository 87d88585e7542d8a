import { TestService } from '@app/testing';
import { newId } from '@app/store';

export interface TestMember {
  id: string;
  username: string;
  auth: { Authorization: string };
}

/** A member the service has heard of through `user.registered`, with a bearer header. */
export async function registerMember(svc: TestService, username: string): Promise<TestMember> {
  const id = newId();
  await svc.publish('user.registered', {
    userId: id,
    username,
    email: `${username}@example.com`,
    display_name: username[0].toUpperCase() + username.slice(1),
    name: username,
    profile_image_url: null,
    created_at: new Date().toISOString(),
  });
  return { id, username, auth: svc.authHeader({ id, username }) };
}
