import { canViewContent, isSuggestible, needsApproval } from './privacy';

describe('privacy rules', () => {
  const stranger = { isSelf: false, blocked: false, approvedFollower: false };
  const follower = { isSelf: false, blocked: false, approvedFollower: true };

  it('shows public content to anyone not blocked', () => {
    expect(canViewContent('public', stranger)).toBe(true);
    expect(canViewContent('public', { ...stranger, blocked: true })).toBe(false);
  });

  it.each(['friends', 'private'] as const)('shows %s content to approved followers and the owner only', (p) => {
    expect(canViewContent(p, stranger)).toBe(false);
    expect(canViewContent(p, follower)).toBe(true);
    expect(canViewContent(p, { ...stranger, isSelf: true })).toBe(true);
    expect(canViewContent(p, { ...follower, blocked: true })).toBe(false);
  });

  it('asks approval for friends and private accounts, suggests only public and friends ones', () => {
    expect([needsApproval('public'), needsApproval('friends'), needsApproval('private')]).toEqual([false, true, true]);
    expect([isSuggestible('public'), isSuggestible('friends'), isSuggestible('private')]).toEqual([true, true, false]);
  });
});
