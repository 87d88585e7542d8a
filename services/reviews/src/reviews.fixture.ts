import { createTestService, TestService } from '@app/testing';
import { newId } from '@app/store';
import { ReviewDoc } from './reviews/review.collection';
import { reviewsService } from './reviews.service-definition';

/** A member as the tests use them: id, username and a bearer header. */
export interface Member {
  id: string;
  username: string;
  auth: { Authorization: string };
}

/** A 1x1 PNG. */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/**
 * A review document as an older version stored it, written to the store directly (backfill
 * specs): no tags, its counters in the document; `fields` adds or overrides.
 */
export function storedReview(id: string, userId: string, fields: Partial<ReviewDoc> = {}): ReviewDoc {
  return {
    _id: id,
    user_id: userId,
    product_id: null,
    product_category: null,
    rating: null,
    title: '',
    content: `Old review ${id}`,
    images: [],
    location: null,
    date: null,
    like_count: 0,
    comment_count: 0,
    edited: false,
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: '2030-01-01T00:00:00.000Z',
    ...fields,
  };
}

export function startReviews(): Promise<TestService> {
  return createTestService(reviewsService);
}

/** Registers a member the way the auth service announces one, so author cards exist. */
export async function member(svc: TestService, username: string): Promise<Member> {
  const id = newId();
  await svc.publish('user.registered', {
    userId: id,
    username,
    email: `${username}@example.com`,
    display_name: username.charAt(0).toUpperCase() + username.slice(1),
    name: username,
    profile_image_url: null,
    created_at: new Date().toISOString(),
  });
  return { id, username, auth: svc.authHeader({ id, username }) };
}

/** A member with a staff role: their token says it, and reviews' site-role copy knows it (as moderation.role_changed tells it). */
export async function staffMember(svc: TestService, username: string, role: 'moderator' | 'admin'): Promise<Member> {
  const m = await member(svc, username);
  await svc.publish('moderation.role_changed', { userId: m.id, role });
  return { ...m, auth: svc.authHeader({ id: m.id, username, role }) };
}

export async function makeProduct(
  svc: TestService,
  owner: Member,
  body: Record<string, unknown> = {},
): Promise<{ id: string; slug: string }> {
  const res = await svc
    .http()
    .post('/api/products')
    .set(owner.auth)
    .send({ name: 'Wireless Earbuds', category: 'Electronics', price: 199.99, ...body });
  if (res.status !== 201) throw new Error(`product create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function makeReview(
  svc: TestService,
  author: Member,
  body: Record<string, unknown>,
): Promise<{ id: string; [key: string]: unknown }> {
  const res = await svc.http().post('/api/reviews').set(author.auth).send({ content: 'Solid.', ...body });
  if (res.status !== 201) throw new Error(`review create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}
