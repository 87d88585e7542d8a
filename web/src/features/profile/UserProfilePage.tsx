import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { useEffect, useRef, useState } from 'react';
import { Lock } from 'lucide-react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { useAppDispatch, useSession } from '../../core/store';
import { errorCode, errorMessage, isSignedOutCode } from '../../core/api';
import { pushToast } from '../../shared/toast';
import { Avatar, Skeleton } from '../../shared/ui';
import { FirstScreenOr } from '../../shared/first-screen';
import { personName, longDate } from '../../shared/format';
import type { UserProfile } from '@app/contracts';
import { followReplyPending, useBlockMutation, useFollowMutation, useFollowersQuery, useFollowingQuery, useUnfollowMutation } from '../people/peopleApi';
import { placeholderProfile, profileErrorText, profileMissing, useProfileQuery } from './profileApi';
import { profileFollowButton } from './followRules';
import { Counters, PeopleList, ProfileReviews } from './ProfileParts';
import { useT } from '../../shared/i18n';
import { ProfileLists } from '../lists/ProfileLists';
import { NotFoundPage } from '../../shared/NotFoundPage';
import { JoinPrompt } from '../auth/JoinPrompt';

type Tab = 'reviews' | 'lists' | 'followers' | 'following';

export function UserProfilePage() {
  const t = useT();
  const { username = '' } = useParams();
  const { user, token } = useSession();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const signedIn = !!token && !!user;
  const own = signedIn && user!.username === username;
  const q = useProfileQuery(username, { refetchOnFocus: true });
  const [tab, setTab] = useState<Tab>('reviews');
  const [opened, setOpened] = useState<Set<Tab>>(new Set(['reviews']));
  const [local, setLocal] = useState<UserProfile | null>(null);
  const [follow, fState] = useFollowMutation();
  const [unfollow, uState] = useUnfollowMutation();
  const [block] = useBlockMutation();
  const reload = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => setLocal(q.data ?? null), [q.data]);
  useEffect(() => () => void (reload.current && clearTimeout(reload.current)), []);
  useEffect(() => {
    setTab('reviews');
    setOpened(new Set(['reviews']));
  }, [username]);

  const signedOutReply = q.isError && isSignedOutCode(errorCode(q.error));
  // visitors read the real profile (issue 43 §3); the spec's placeholder stays only for a reply that says "sign in"
  const placeholder = signedOutReply;
  const p: UserProfile | null = placeholder ? placeholderProfile(username) : local;
  // a private account the viewer may not see: say so instead of an empty list under a non-zero counter
  const hidden = p ? !p.can_view_content : false;
  useDocumentTitle(p ? `${p.display_name || p.username} (@${p.username})` : q.isError ? '' : undefined);
  // follower and following lists load on first opening of their tab
  // a visitor reads the profile and its reviews; lists and people are for members (issue 43 §3)
  const membersOnly = !signedIn && tab !== 'reviews';
  const followers = useFollowersQuery(p?.id, { skip: !signedIn || !opened.has('followers') || !p || p.id === '0' || hidden });
  const following = useFollowingQuery(p?.id, { skip: !signedIn || !opened.has('following') || !p || p.id === '0' || hidden });

  if (own) return <Navigate to="/profile" replace />;
  // the server's first screen of this address (the profile's head) stays until the profile comes
  if (q.isLoading)
    return (
      <FirstScreenOr part="content">
        <Skeleton lines={4} />
      </FirstScreenOr>
    );
  if (q.isError && !placeholder) {
    // an unknown or deleted member is the app's 404 screen (the server answered 404 for the page too)
    if (profileMissing(q.error)) return <NotFoundPage />;
    return (
      <div className="card error-box">
        <p className="error-text">{profileErrorText(q.error as never, username)}</p>
        <button className="btn" onClick={() => q.refetch()}>
          {t('feed.retry')}
        </button>
      </div>
    );
  }
  if (!p) return null;

  const button = profileFollowButton({ signedIn, own, placeholder, status: p.follow_status });
  const busy = fState.isLoading || uState.isLoading;

  function scheduleReload() {
    if (reload.current) clearTimeout(reload.current);
    reload.current = setTimeout(() => void q.refetch(), 1000);
  }

  async function onFollow() {
    if (!p) return;
    // a visitor's follow is a sign-up prompt (issue 43 §3)
    if (button.action === 'login') return navigate('/?join=1');
    if (button.action === 'follow') {
      const r = await follow(p.id);
      if ('error' in r) {
        const msg = errorMessage(r.error, t('profile.followFailed'));
        if (errorCode(r.error) === 'ALREADY_FOLLOWING') {
          setLocal({ ...p, follow_status: { ...p.follow_status, isFollowing: true, isPending: false } });
        } else dispatch(pushToast({ title: t('common.apiError'), message: msg, kind: 'error' }));
        return;
      }
      const pending = followReplyPending(r.data);
      setLocal({
        ...p,
        followers_count: pending ? p.followers_count : p.followers_count + 1,
        follow_status: { ...p.follow_status, isFollowing: !pending, isPending: pending },
      });
    } else if (button.action === 'unfollow') {
      const wasFollowing = !!p.follow_status.isFollowing;
      const r = await unfollow(p.id);
      if ('error' in r) {
        dispatch(pushToast({ title: t('common.apiError'), message: errorMessage(r.error, t('profile.unfollowFailed')), kind: 'error' }));
        return;
      }
      setLocal({
        ...p,
        followers_count: wasFollowing ? Math.max(0, p.followers_count - 1) : p.followers_count,
        follow_status: { ...p.follow_status, isFollowing: false, isPending: false },
      });
    }
    scheduleReload();
  }

  const openTab = (t: Tab) => {
    setTab(t);
    setOpened((s) => new Set(s).add(t));
  };

  return (
    <div className="page" data-testid="user-profile">
      {placeholder && <div className="warn-bar">{t('profile.limited')}</div>}
      <section className="card">
        <div className="profile-banner" />
        <div className="profile-head">
          <Avatar src={p.profile_image_url} name={personName(p)} size={104} />
          <div className="profile-name">
            <h1 style={{ marginBottom: 0 }}>{personName(p)}</h1>
            <div className="muted">@{p.username}</div>
          </div>
          {!button.hidden && (
            <div className="row gap">
              <button
                className={`btn ${button.action === 'follow' || button.action === 'login' ? 'btn-primary' : ''}`}
                disabled={button.disabled || busy}
                onClick={onFollow}
                data-testid="profile-follow"
              >
                {button.label}
              </button>
              {signedIn && !placeholder && !p.follow_status.isBlockedBy && (
                <button
                  className="btn btn-sm"
                  onClick={async () => {
                    const blocking = !p.follow_status.isBlocked;
                    const r = await block({ id: p.id, block: blocking });
                    if ('error' in r) dispatch(pushToast({ title: t('common.error'), message: errorMessage(r.error, t('profile.actionFailed')), kind: 'error' }));
                    else q.refetch();
                  }}
                >
                  {p.follow_status.isBlocked ? t('profile.unblock') : t('profile.block')}
                </button>
              )}
              {signedIn && !placeholder && !p.follow_status.isBlocked && !p.follow_status.isBlockedBy && (
                <Link className="btn btn-sm" to={`/messages?to=${p.id}`}>
                  {t('profile.message')}
                </Link>
              )}
            </div>
          )}
        </div>
        {p.bio && <p className="pre-wrap">{p.bio}</p>}
        <div className="muted small">{t('profile.joined', { date: longDate(p.created_at) })}</div>
        <Counters reviews={p.reviews_count} following={p.following_count} followers={p.followers_count} />
      </section>
      <div className="tabs">
        {(
          [
            ['reviews', t('profile.tabReviews')],
            ['lists', t('lists.tab')],
            ['followers', t('profile.tabFollowers')],
            ['following', t('profile.tabFollowing')],
          ] as Array<[Tab, string]>
        ).map(([id, label]) => (
          <button key={id} className={`tab ${tab === id ? 'active' : ''}`} onClick={() => openTab(id)}>
            {label}
          </button>
        ))}
      </div>
      <section className="card">
        {hidden ? (
          <div className="empty" data-testid="private-profile">
            <Lock className="empty-icon" size={32} aria-hidden="true" />
            <div className="empty-title">{t('profile.privateTitle')}</div>
            <p className="muted">{t('profile.privateHint')}</p>
          </div>
        ) : membersOnly ? (
          <div className="empty" data-testid="members-only">
            <JoinPrompt text={t('truth.joinToSee')} />
          </div>
        ) : (
          <>
        {tab === 'reviews' &&
          (p.id === '0' ? <p className="muted">{t('profile.emptyReviews')}</p> : <ProfileReviews userId={p.id} emptyText={t('profile.emptyReviews')} />)}
        {tab === 'lists' && (p.id === '0' ? <p className="muted">{t('lists.none')}</p> : <ProfileLists userId={p.id} own={false} />)}
        {tab === 'followers' && (
          <PeopleList
            people={p.id === '0' ? [] : followers.data}
            loading={followers.isLoading}
            error={followers.isError ? t('profile.followersFailed') : null}
            emptyText={t('profile.emptyFollowers')}
            buttonLabel={t('profile.profile')}
          />
        )}
        {tab === 'following' && (
          <PeopleList
            people={p.id === '0' ? [] : following.data}
            loading={following.isLoading}
            error={following.isError ? t('profile.followingFailed') : null}
            emptyText={t('profile.emptyFollowing')}
            buttonLabel={t('profile.profile')}
          />
        )}
          </>
        )}
      </section>
    </div>
  );
}
