import { describe, expect, it } from 'vitest';
import { hidesRightColumn } from './layout';

describe('layout', () => {
  it('wide routes hide the right column', () => {
    expect(hidesRightColumn('/settings')).toBe(true);
    expect(hidesRightColumn('/messages')).toBe(true);
    expect(hidesRightColumn('/squads/abc')).toBe(true);
    expect(hidesRightColumn('/home')).toBe(false);
  });
});
