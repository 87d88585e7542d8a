import { useState } from 'react';
import { Mail } from 'lucide-react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useSession } from '../../core/store';
import { Avatar, Skeleton } from '../../shared/ui';
import { copyText } from '../../shared/clipboard';
import { useTimedFlag } from '../../shared/useTimedFlag';
import { personName, longDate } from '../../shared/format';
import { useFollowersQuery, useFollowingQuery } from '../people/peopleApi';
import { useProfileQuery } from './profileApi';
import { Counters, PeopleList, ProfileReviews } from './ProfileParts';
import { FollowRequests } from './FollowRequests';
import { useT } from '../../shared/i18n';
import { ProfileLists } from '../lists/ProfileLists';

type Tab = 'reviews' | 'lists' | 'followers' | 'following' | 'requests';

export function OwnProfilePage() {
  const t = useT();
  const { user } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [tab, setTab] = useState<Tab>((params.get('tab') as Tab) || 'reviews');
  const [copied, flash] = useTimedFlag(2000);
  const profile = useProfileQuery(user?.username ?? '', { skip: !user, refetchOnFocus: true });
  const followers = useFollowersQuery(undefined, { skip: tab !== 'followers' });
  const following = useFollowingQuery(undefined, { skip: tab !== 'following' });

  if (profile.isLoading) return <Skeleton lines={4} />;
  if (profile.isError || !profile.data)
    return (
      <div className="card error-box">
        <p className="error-text">{t('profile.loadError')}</p>
        <button className="btn" onClick={() => profile.refetch()}>
          {t('common.retry')}
        </button>
      </div>
    );
  const p = profile.data;
  return (
    <div className="page" data-testid="own-profile">
      <section className="card">
        <div className="profile-banner" />
        <div className="profile-head">
          <Avatar src={p.profile_image_url} name={personName(p)} size={104} />
          <div className="profile-name">
            <h1 style={{ marginBottom: 0 }}>{p.display_name || p.name || p.username}</h1>
            <div className="muted">@{p.username}</div>
          </div>
          <div className="row gap">
            <button className="btn" onClick={() => navigate('/settings')}>
              {t('profile.editProfile')}
            </button>
            <button
              className="btn"
              onClick={async () => {
                if (await copyText(`${window.location.origin}/user/${p.username}`)) flash();
              }}
            >
              {copied ? t('common.copied') : t('profile.shareProfile')}
            </button>
          </div>
        </div>
        <p className="pre-wrap">{p.bio || t('profile.noBio')}</p>
        <div className="muted small">
          {(p.email ?? user?.email) && <><Mail size={14} aria-hidden="true" className="inline-icon" /> {p.email ?? user?.email} · </>}{t('profile.joined', { date: longDate(p.created_at) })}
        </div>
        <Counters reviews={p.reviews_count} following={p.following_count} followers={p.followers_count} />
      </section>
      <FollowRequests compact />
      <div className="tabs">
        {(
          [
            ['reviews', t('profile.tabReviews')],
            ['lists', t('lists.tab')],
            ['followers', t('profile.tabFollowers')],
            ['following', t('profile.tabFollowing')],
            ['requests', t('profile.tabRequests')],
          ] as Array<[Tab, string]>
        ).map(([id, label]) => (
          <button key={id} className={`tab ${tab === id ? 'active' : ''}`} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </div>
      <section className="card">
        {tab === 'reviews' && <ProfileReviews userId={p.id} emptyText={t('profile.emptyOwnReviews')} />}
        {tab === 'lists' && <ProfileLists userId={p.id} own />}
        {tab === 'followers' && (
          <PeopleList
            people={followers.data}
            loading={followers.isLoading}
            error={followers.isError ? t('profile.followersFailed') : null}
            emptyText={t('profile.emptyOwnFollowers')}
            buttonLabel={t('profile.viewProfile')}
          />
        )}
        {tab === 'following' && (
          <PeopleList
            people={following.data}
            loading={following.isLoading}
            error={following.isError ? t('profile.followingFailed') : null}
            emptyText={t('profile.emptyOwnFollowing')}
            buttonLabel={t('profile.viewProfile')}
          />
        )}
        {tab === 'requests' && <FollowRequests />}
      </section>
    </div>
  );
}
