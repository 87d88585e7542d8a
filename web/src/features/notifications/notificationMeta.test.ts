import { describe, expect, it } from 'vitest';
import { notificationTarget } from './notificationMeta';

const base = { id: 'n1', message: 'x', is_read: false, created_at: new Date().toISOString(), related_user: { id: 'u1', username: 'burak', display_name: 'Burak', profile_image_url: null } };

describe('notificationTarget', () => {
  it('a "wants to join" leads to the squad with its requests open', () => {
    expect(notificationTarget({ ...base, type: 'squad_join_request' as const, squad_id: 's1' })).toBe('/squads/s1?requests=1');
  });
  it('other squad notifications lead to the squad', () => {
    expect(notificationTarget({ ...base, type: 'squad_join_approved' as const, squad_id: 's1' })).toBe('/squads/s1');
  });
  it('a squad chat mention opens the squad chat', () => {
    expect(notificationTarget({ ...base, type: 'squad_mention' as const, squad_id: 's1' })).toBe('/squads/s1?chat=1');
  });
  it('follow requests to the request list, others to the actor', () => {
    expect(notificationTarget({ ...base, type: 'follow_request' as const })).toBe('/profile?tab=requests');
    expect(notificationTarget({ ...base, type: 'review_liked' as const })).toBe('/user/burak');
  });
});
