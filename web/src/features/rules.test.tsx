import { describe, expect, it } from 'vitest';
import { render, screen, fireEvent } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { makeStore } from '../core/store';
import { followLabel } from './people/FollowButton';
import { followReplyPending } from './people/peopleApi';
import { profileFollowButton } from './profile/followRules';
import { detailJoinLabel, exploreJoinLabel } from './squads/squadsApi';
import { filterFeed } from './feed/HomePage';
import { buildReview, mentionQuery } from './composer/Composer';
import { loginErrorText, registerErrorText } from './auth/authErrors';
import { reviewErrorText } from './reviews/reviewsApi';
import { messageAfterName } from './notifications/notificationMeta';
import { productSummary } from './products/ProductsPage';
import { nearBottom } from './messages/ChatPane';
import { ReviewRow } from './profile/ProfileParts';
import { JoinModal } from './squads/JoinModal';
import { tokenExpired } from '../core/session';
import { errorCode, isSignedOutCode } from '../core/api';
import { profileErrorText, profileMissing } from './profile/profileApi';
import type { ReviewView } from '@app/contracts';
import { applyLanguage } from '../shared/i18n';

const S = { isFollowing: false, isFollowed: false, isPending: false, isBlocked: false, isBlockedBy: false };

describe('follow button states', () => {
  it('people panel: Follow, Pending, Following, Loading...', () => {
    expect(followLabel('none', false)).toBe('Follow');
    expect(followLabel('pending', false)).toBe('Pending');
    expect(followLabel('following', false)).toBe('Following');
    expect(followLabel('following', true)).toBe('Loading...');
  });
  it('a reply means pending by message or status', () => {
    expect(followReplyPending({ message: 'Follow request sent' })).toBe(true);
    expect(followReplyPending({ data: { status: 'pending' } })).toBe(true);
    expect(followReplyPending({ data: { status: 'following' } })).toBe(false);
  });
  it('profile button', () => {
    const base = { signedIn: true, own: false, placeholder: false };
    expect(profileFollowButton({ ...base, own: true }).hidden).toBe(true);
    expect(profileFollowButton({ ...base, signedIn: false }).label).toBe('Sign in to follow');
    expect(profileFollowButton({ ...base, placeholder: true }).label).toBe('Sign in to follow');
    expect(profileFollowButton({ ...base, status: S }).label).toBe('Follow');
    expect(profileFollowButton({ ...base, status: { ...S, isFollowing: true } }).label).toBe('Unfollow');
    expect(profileFollowButton({ ...base, status: { ...S, isPending: true } })).toMatchObject({ label: 'Request Sent', action: 'unfollow' });
    expect(profileFollowButton({ ...base, status: { ...S, isBlocked: true } })).toMatchObject({ label: 'Blocked', disabled: true });
    expect(profileFollowButton({ ...base, status: { ...S, isBlockedBy: true } })).toMatchObject({ label: 'You are blocked', disabled: true });
  });
});

describe('squad join labels', () => {
  it('explore and detail', () => {
    expect(exploreJoinLabel({ is_member: false, join_request_status: null })).toBe('Request to Join');
    expect(exploreJoinLabel({ is_member: false, join_request_status: 'pending' })).toBe('Request Sent');
    expect(exploreJoinLabel({ is_member: false, join_request_status: 'rejected' })).toBe('Request Rejected');
    expect(exploreJoinLabel({ is_member: true, join_request_status: null })).toBe('Member');
    expect(detailJoinLabel({ join_request_status: null })).toBe('Request to Join');
    expect(detailJoinLabel({ join_request_status: 'pending' })).toBe('Request Pending');
    expect(detailJoinLabel({ join_request_status: 'rejected' })).toBe('Request Again');
  });
});

describe('texts and rules', () => {
  it('login and register errors', () => {
    expect(loginErrorText({ status: 401, data: { message: 'Invalid email or password' } })).toBe('API Error: Invalid email or password');
    expect(loginErrorText({ status: 401 })).toBe('Wrong email or password.');
    expect(loginErrorText({ status: 404 })).toBe('The account you are trying to sign in to was not found.');
    expect(loginErrorText({ status: 503 })).toBe('Server error. Please try again later.');
    expect(loginErrorText({ status: 'FETCH_ERROR' })).toBe('Could not sign in. Please check your connection and try again.');
    expect(registerErrorText({ status: 409 })).toBe('Registration failed. This email address may already be in use.');
    expect(registerErrorText({ status: 400 })).toBe('Registration failed');
  });
  it('login errors in Turkish: by code, never the server\'s English message', async () => {
    await applyLanguage('tr');
    try {
      expect(loginErrorText({ status: 401, data: { code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' } })).toBe('E-posta veya şifre hatalı.');
      expect(loginErrorText({ status: 'FETCH_ERROR' })).toBe('Giriş yapılamadı. Lütfen bağlantınızı kontrol edin ve tekrar deneyin.');
      expect(registerErrorText({ status: 409, data: { code: 'EMAIL_TAKEN', message: 'x' } })).toBe('Kayıt işlemi başarısız. Bu e-posta adresi zaten kullanılmış olabilir.');
      expect(reviewErrorText({ status: 409, data: { code: 'ALREADY_REVIEWED', message: 'dup' } })).toBe('İnceleme gönderilirken bir hata oluştu. Lütfen tekrar deneyin.');
    } finally {
      await applyLanguage('en');
    }
  });
  it('login and register errors are decided by the code, not the status', () => {
    expect(loginErrorText({ status: 401, data: { code: 'INVALID_CREDENTIALS' } })).toBe('Wrong email or password.');
    expect(loginErrorText({ status: 401, data: { code: 'ACCOUNT_GONE' } })).toBe('Wrong email or password.');
    expect(loginErrorText({ status: 404, data: { code: 'ACCOUNT_NOT_FOUND' } })).toBe('The account you are trying to sign in to was not found.');
    expect(loginErrorText({ status: 502, data: { code: 'BAD_GATEWAY' } })).toBe('Server error. Please try again later.');
    expect(loginErrorText({ status: 429, data: { code: 'RATE_LIMITED' } })).toBe('Could not sign in. Please check your connection and try again.');
    expect(registerErrorText({ status: 409, data: { code: 'EMAIL_TAKEN', message: 'An account with this email already exists' } })).toBe(
      'Registration failed. This email address may already be in use.',
    );
    expect(registerErrorText({ status: 409, data: { code: 'USERNAME_UNAVAILABLE', message: 'x' } })).toBe(
      'Registration failed. This email address may already be in use.',
    );
    expect(registerErrorText({ status: 400, data: { code: 'WEAK_PASSWORD', message: 'Password too weak' } })).toBe('Password too weak');
  });
  it('profile and product not found by code', () => {
    expect(profileErrorText({ status: 404, data: { code: 'USER_NOT_FOUND', message: 'User not found' } }, 'ayse')).toBe('User not found: ayse');
    expect(profileMissing({ status: 404, data: { code: 'NOT_FOLLOWING' } })).toBe(false);
    expect(profileErrorText({ status: 'FETCH_ERROR' }, 'ayse')).toBe('No reply from the server. Please check your internet connection.');
    expect(errorCode({ status: 503 })).toBe('SERVICE_UNAVAILABLE');
    expect(errorCode({ status: 'FETCH_ERROR' })).toBeUndefined();
    expect(isSignedOutCode(errorCode({ status: 401, data: { code: 'INVALID_TOKEN' } }))).toBe(true);
  });
  it('review errors', () => {
    expect(reviewErrorText({ status: 400 })).toMatch(/^Invalid review data \(400\)/);
    expect(reviewErrorText({ status: 404 })).toBe('The product was not found (404).');
    expect(reviewErrorText({ status: 'FETCH_ERROR' })).toBe('No reply from the server. Check your internet connection.');
    expect(reviewErrorText({ status: 409, data: { message: 'dup' } })).toBe('API Error: dup');
    expect(reviewErrorText({ status: 404, data: { code: 'PRODUCT_NOT_FOUND' } })).toBe('The product was not found (404).');
    expect(reviewErrorText({ status: 401, data: { code: 'INVALID_TOKEN' } })).toBe('Your session may have expired. Please sign in again (401).');
    expect(reviewErrorText({ status: 400, data: { code: 'VALIDATION_FAILED' } })).toMatch(/^Invalid review data \(400\)/);
    expect(reviewErrorText({ status: 409, data: { code: 'ALREADY_REVIEWED' } })).toBe('Something went wrong while posting the review. Please try again.');
  });
  it('products summary', () => {
    expect(productSummary(3, 'All', 'key')).toBe('Showing 3 product(s) in All matching "key"');
  });
  it('composer: mention query, payload defaults', () => {
    expect(mentionQuery('I love @Key', 11)).toBe('Key');
    expect(mentionQuery('mail a@b', 8)).toBeNull();
    // no preset rating (issue 43 §5): the stars are the author's, the composer waits for them
    expect(buildReview({ text: '  hi  ', rating: null, product: { id: 'p1', name: 'Keyboard' }, images: [], location: '', date: '' })).toEqual({
      content: 'hi',
      images: [],
      product_id: 'p1',
      title: 'Keyboard',
    });
    expect(buildReview({ text: 'hi', rating: 3.5, product: { id: 'p1', name: 'Keyboard' }, images: [], location: '', date: '' })).toMatchObject({ product_id: 'p1', rating: 3.5 });
    expect(buildReview({ text: 'x', rating: null, product: null, images: ['/api/media/1'], location: 'Ankara', date: '' })).toEqual({
      content: 'x',
      images: ['/api/media/1'],
      location: 'Ankara',
    });
  });
  it('feed tabs filter', () => {
    const r = (id: string, rating: number | null, images: string[] = []) => ({ id, rating, images, user_id: 'u', content: '', created_at: '' }) as unknown as ReviewView;
    const list = [r('a', 4), r('b', null, ['x']), r('c', null)];
    expect(filterFeed(list, 'all').map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(filterFeed(list, 'reviews').map((x) => x.id)).toEqual(['a']);
    expect(filterFeed(list, 'media').map((x) => x.id)).toEqual(['b']);
  });
  it('auto-scroll threshold 100 px', () => {
    expect(nearBottom({ scrollHeight: 1000, scrollTop: 400, clientHeight: 500 })).toBe(true);
    expect(nearBottom({ scrollHeight: 1000, scrollTop: 399, clientHeight: 500 })).toBe(false);
  });
  it('jwt expiry', () => {
    const tok = (exp: number) => `x.${btoa(JSON.stringify({ exp }))}.y`;
    expect(tokenExpired(tok(Date.now() / 1000 + 60))).toBe(false);
    expect(tokenExpired(tok(Date.now() / 1000 - 60))).toBe(true);
    expect(tokenExpired(null)).toBe(true);
  });
});

function wrap(ui: React.ReactElement) {
  return render(
    <Provider store={makeStore()}>
      <MemoryRouter>{ui}</MemoryRouter>
    </Provider>,
  );
}

describe('components', () => {
  it('profile review row cuts content at 150 characters', () => {
    const review = { id: 'r', user_id: 'u', product_id: null, rating: 4, content: 'b'.repeat(200), created_at: new Date().toISOString(), product: null } as ReviewView;
    wrap(<ReviewRow review={review} />);
    expect(screen.getByTestId('review-row-content').textContent).toBe('b'.repeat(150) + '...');
    expect(screen.getByText('No img')).toBeTruthy();
  });
  it('join modal texts and 250-character limit', () => {
    wrap(<JoinModal squad={{ id: 's', name: 'Keebs' }} open onClose={() => undefined} />);
    expect(screen.getByText('Request to Join Keebs')).toBeTruthy();
    expect(screen.getByText("Send a message to the squad admins explaining why you'd like to join (optional):")).toBeTruthy();
    const area = screen.getByPlaceholderText("I'd like to join because...") as HTMLTextAreaElement;
    expect(area.rows).toBe(3);
    fireEvent.change(area, { target: { value: 'x'.repeat(300) } });
    expect(area.value.length).toBe(250);
    expect(screen.getByText('Send Request')).toBeTruthy();
  });
});

describe('notification text', () => {
  it('drops the actor name the service already put at the start of the message', () => {
    expect(messageAfterName('Mert Reader liked your review', 'Mert Reader')).toBe('liked your review');
    expect(messageAfterName('Someone else liked it', 'Mert Reader')).toBe('Someone else liked it');
    expect(messageAfterName('Burak, Kahve topluluğuna katılmak istiyor', 'Burak')).toBe('Kahve topluluğuna katılmak istiyor');
  });
});
