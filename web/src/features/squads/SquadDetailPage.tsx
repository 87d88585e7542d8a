import { useState } from 'react';
import { ArrowLeft, Check, Flame, Link as LinkIcon, MessageCircle, Settings, Sprout, Trophy } from 'lucide-react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { useAppDispatch } from '../../core/store';
import { errorMessage } from '../../core/api';
import { pushToast } from '../../shared/toast';
import { Avatar, Skeleton } from '../../shared/ui';
import { copyText } from '../../shared/clipboard';
import { useTimedFlag } from '../../shared/useTimedFlag';
import { englishLongDate, memberLabel, personName, squadTime } from '../../shared/format';
import { RoleIcon } from './MySquadsPage';
import { JoinModal } from './JoinModal';
import { EditSquadModal } from './EditSquadModal';
import { SquadActivity } from './SquadActivity';
import { SquadMembers } from './SquadMembers';
import {
  activityLevel,
  detailJoinLabel,
  useDecideJoinMutation,
  useJoinRequestsQuery,
  useLeaveSquadMutation,
  useSquadConversationMutation,
  useSquadQuery,
  useSquadRatingQuery,
} from './squadsApi';

const DAY = 86_400_000;

/** Squad Rating tile: one decimal, '—' while unknown or when no member rated anything. */
export function squadRatingText(rating: number | null | undefined): string {
  return rating != null ? Number(rating).toFixed(1) : '—';
}

export function SquadDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const dispatch = useAppDispatch();
  const q = useSquadQuery(id);
  const squad = q.data;
  const canManage = squad?.user_role === 'admin' || squad?.user_role === 'moderator';
  const requests = useJoinRequestsQuery(id, { skip: !canManage });
  const memberIds = (squad?.members ?? []).map((m) => m.id);
  const rating = useSquadRatingQuery(memberIds, { skip: memberIds.length === 0 });
  const [decide] = useDecideJoinMutation();
  const [leave] = useLeaveSquadMutation();
  const [openChat, chatState] = useSquadConversationMutation();
  const [pending, setPending] = useState<string | null>(null); // leave, join, approve-{id}, reject-{id}
  // a "wants to join" notification opens the page with its requests shown (?requests=1)
  const [showRequests, setShowRequests] = useState(() => new URLSearchParams(location.search).has('requests'));
  const [joinOpen, setJoinOpen] = useState(false);
  const [editOpen, setEditOpen] = useState(false);
  const [copied, flash] = useTimedFlag(2000);
  const [leaveError, setLeaveError] = useState<string | null>(null);

  if (q.isLoading)
    return (
      <div data-testid="squad-skeleton">
        <Skeleton lines={4} />
        <Skeleton />
      </div>
    );
  if (q.isError || !squad)
    return (
      <div className="page">
        <Link to="/my-squads" className="small">
          <ArrowLeft size={14} aria-hidden="true" /> Back to My Squads
        </Link>
        <div className="card empty" data-testid="squad-not-found">
          <h2>Squad Not Found</h2>
          <p className="muted">{q.isError ? errorMessage(q.error, "The squad you're looking for doesn't exist or has been deleted.") : 'Failed to load squad details'}</p>
          <button className="btn btn-primary" onClick={() => navigate('/my-squads')}>
            Go Back
          </button>
        </div>
      </div>
    );

  const members = squad.members ?? [];
  const pendingRequests = requests.data ?? [];
  const joins30 = members.filter((m) => Date.now() - new Date(m.joined_at).getTime() < 30 * DAY).length;
  const creator = members.find((m) => m.id === squad.creator_id);

  async function share() {
    if (await copyText(window.location.href)) flash();
    else console.error('Clipboard unavailable');
  }

  async function doLeave() {
    setPending('leave');
    setLeaveError(null);
    const r = await leave(id);
    setPending(null);
    if ('error' in r) setLeaveError(errorMessage(r.error, 'Failed to leave squad'));
    else q.refetch();
  }

  async function doDecide(requestId: string, action: 'approve' | 'reject') {
    setPending(`${action}-${requestId}`);
    const r = await decide({ id, requestId, action });
    setPending(null);
    if ('error' in r) dispatch(pushToast({ title: 'Hata', message: errorMessage(r.error, `Failed to ${action} join request`), kind: 'error' }));
  }

  async function chat() {
    const r = await openChat(id);
    if ('error' in r) dispatch(pushToast({ title: 'Hata', message: errorMessage(r.error, 'Failed to load conversations'), kind: 'error' }));
    else navigate(`/messages/${r.data.id}`);
  }

  return (
    <div className="page" data-testid="squad-detail">
      <Link to="/my-squads" className="small">
        <ArrowLeft size={14} aria-hidden="true" /> Back to My Squads
      </Link>
      <div className="squad-layout" style={{ marginTop: '0.6rem' }}>
        <div>
          <section className="card">
            <div className="row gap top">
              <Avatar name={squad.name} size={64} />
              <div style={{ flex: 1, minWidth: 0 }}>
                <h1 style={{ marginBottom: 4 }}>
                  {squad.name} <RoleIcon role={squad.is_member ? squad.user_role : null} />
                </h1>
                <div className="muted small">
                  <span className="pill">{squad.category}</span> · Created {englishLongDate(squad.created_at)} · {memberLabel(squad.member_count)}
                </div>
              </div>
              <button className="icon-btn" aria-label="Share squad" onClick={share} data-testid="squad-share">
                {copied ? <Check size={18} aria-hidden="true" /> : <LinkIcon size={18} aria-hidden="true" />}
              </button>
              {squad.user_role === 'admin' && (
                <button className="icon-btn" aria-label="Squad settings" onClick={() => setEditOpen(true)} data-testid="squad-settings-button">
                  <Settings size={18} aria-hidden="true" />
                </button>
              )}
            </div>
            <p className="pre-wrap">{squad.description || 'No description available'}</p>
            <div className="row gap wrap">
              {squad.is_member ? (
                <>
                  <button className="btn btn-primary" onClick={chat} disabled={chatState.isLoading} data-testid="squad-chat">
                    <MessageCircle size={16} aria-hidden="true" /> Squad Chat
                  </button>
                  <button className="btn" disabled={squad.user_role === 'admin' || pending === 'leave'} onClick={doLeave}>
                    {pending === 'leave' ? 'Leaving...' : 'Leave Squad'}
                  </button>
                  {canManage && pendingRequests.length > 0 && (
                    <button className="btn" onClick={() => setShowRequests((s) => !s)} data-testid="manage-requests">
                      Manage Requests ({pendingRequests.length})
                    </button>
                  )}
                </>
              ) : squad.join_request_status === 'pending' ? (
                <span className="pill" data-testid="request-pending">
                  Request Pending
                </span>
              ) : (
                <button className="btn btn-primary" onClick={() => setJoinOpen(true)} data-testid="request-join">
                  {detailJoinLabel(squad)}
                </button>
              )}
            </div>
            {leaveError && <div className="error-bar">{leaveError}</div>}
          </section>

          <div className="grid grid-3">
            <div className="card stat-tile">
              <b>{squad.member_count}</b>
              <span className="muted small">Total Members</span>
            </div>
            <div className="card stat-tile">
              <b data-testid="squad-rating">{squadRatingText(rating.data)}</b>
              <span className="muted small">Squad Rating</span>
            </div>
            <div className="card stat-tile">
              <b>{activityLevel(joins30, squad.member_count)}</b>
              <span className="muted small">Activity Level</span>
            </div>
          </div>

          {canManage && showRequests && (
            <section className="card" data-testid="join-requests">
              <h3 className="panel-title">Join Requests</h3>
              {pendingRequests.length === 0 && <p className="muted">No pending join requests</p>}
              {pendingRequests.map((r) => (
                <div key={r.id} className="request-row">
                  <Avatar src={r.user.profile_image_url} name={personName(r.user)} size={40} />
                  <div style={{ flex: 1 }}>
                    <div className="strong">{personName(r.user)}</div>
                    <div className="muted small">{squadTime(r.created_at)}</div>
                    {r.message && <blockquote>"{r.message}"</blockquote>}
                  </div>
                  <button className="btn btn-sm btn-success" disabled={pending === `approve-${r.id}`} onClick={() => doDecide(r.id, 'approve')}>
                    {pending === `approve-${r.id}` ? 'Approving...' : 'Approve'}
                  </button>
                  <button className="btn btn-sm" disabled={pending === `reject-${r.id}`} onClick={() => doDecide(r.id, 'reject')}>
                    {pending === `reject-${r.id}` ? 'Rejecting...' : 'Reject'}
                  </button>
                </div>
              ))}
            </section>
          )}
          <SquadActivity squadId={squad.id} squadName={squad.name} />
        </div>

        <aside>
          <section className="card">
            <h3 className="panel-title">Squad Creator</h3>
            <div className="row gap">
              <Avatar src={squad.creator_avatar ?? creator?.profile_image_url} name={squad.creator_name || squad.creator_username} size={40} />
              <div>
                {squad.creator_username ? (
                  <Link to={`/user/${squad.creator_username}`} className="strong">
                    {squad.creator_name || squad.creator_username}
                  </Link>
                ) : (
                  <span className="strong">{squad.creator_name}</span>
                )}
                <div className="muted small">Creator</div>
              </div>
            </div>
          </section>
          <SquadMembers squad={squad} />
          <section className="card">
            <h3 className="panel-title">Squad Achievements</h3>
            <ul className="plain-list small">
              <li style={{ opacity: 1 }}>
                <Trophy size={14} aria-hidden="true" className="inline-icon" /> Squad Pioneer — founded {squadTime(squad.created_at)}</li>
              <li style={{ opacity: joins30 > 0 ? 1 : 0.45 }}>
                <Flame size={14} aria-hidden="true" className="inline-icon" /> Active Community — {joins30} joined in the last 30 days</li>
              <li style={{ opacity: squad.member_count >= 50 ? 1 : 0.45 }}>
                <Sprout size={14} aria-hidden="true" className="inline-icon" /> Growing Squad — 50+ members</li>
            </ul>
          </section>
        </aside>
      </div>
      <JoinModal squad={squad} open={joinOpen} onClose={() => setJoinOpen(false)} />
      {editOpen && <EditSquadModal squad={squad} open={editOpen} onClose={() => setEditOpen(false)} />}
    </div>
  );
}
