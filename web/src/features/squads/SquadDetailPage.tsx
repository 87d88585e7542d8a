import { useEffect, useState } from 'react';
import { ArrowLeft, Check, Link as LinkIcon, MessageCircle, Settings } from 'lucide-react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { useAppDispatch } from '../../core/store';
import { errorMessage } from '../../core/api';
import { pushToast } from '../../shared/toast';
import { Avatar, Skeleton } from '../../shared/ui';
import { copyText } from '../../shared/clipboard';
import { useTimedFlag } from '../../shared/useTimedFlag';
import { categoryName, longDate, memberLabel } from '../../shared/format';
import { RoleIcon } from './MySquadsPage';
import { JoinModal } from './JoinModal';
import { EditSquadModal } from './EditSquadModal';
import { SquadActivity } from './SquadActivity';
import { SquadMembers } from './SquadMembers';
import { JoinRequests } from './JoinRequests';
import { SquadAchievements } from './SquadAchievements';
import { SquadCreator } from './SquadCreator';
import { SquadStatTiles } from './SquadStatTiles';
import {
  detailJoinLabel,
  useJoinRequestsQuery,
  useLeaveSquadMutation,
  useSquadConversationMutation,
  useSquadQuery,
} from './squadsApi';
import { useT } from '../../shared/i18n';

export function SquadDetailPage() {
  const t = useT();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const dispatch = useAppDispatch();
  const q = useSquadQuery(id);
  const squad = q.data;
  const canManage = squad?.user_role === 'admin' || squad?.user_role === 'moderator';
  const requests = useJoinRequestsQuery(id, { skip: !canManage });
  const [leave] = useLeaveSquadMutation();
  const [openChat, chatState] = useSquadConversationMutation();
  const [leaving, setLeaving] = useState(false);
  // a "wants to join" notification opens the page with its requests shown (?requests=1)
  const [showRequests, setShowRequests] = useState(() => new URLSearchParams(location.search).has('requests'));
  const [joinOpen, setJoinOpen] = useState(false);
  const [editOpen, setEditOpen] = useState(false);
  const [copied, flash] = useTimedFlag(2000);
  const [leaveError, setLeaveError] = useState<string | null>(null);
  // a mention notification opens the squad's chat (?chat=1) once the page knows the viewer is a member
  const chatWanted = new URLSearchParams(location.search).has('chat');
  useEffect(() => {
    if (chatWanted && squad?.is_member) void chat();
  }, [chatWanted, squad?.is_member]); // eslint-disable-line react-hooks/exhaustive-deps

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
          <ArrowLeft size={14} aria-hidden="true" /> {t('squads.back')}
        </Link>
        <div className="card empty" data-testid="squad-not-found">
          <h2>{t('squads.notFound')}</h2>
          <p className="muted">{q.isError ? errorMessage(q.error, t('squads.notFoundText')) : t('squads.detailsFailed')}</p>
          <button className="btn btn-primary" onClick={() => navigate('/my-squads')}>
            {t('squads.goBack')}
          </button>
        </div>
      </div>
    );

  const members = squad.members ?? [];
  const pendingRequests = requests.data ?? [];

  async function share() {
    if (await copyText(window.location.href)) flash();
    else console.error('Clipboard unavailable');
  }

  async function doLeave() {
    setLeaving(true);
    setLeaveError(null);
    const r = await leave(id);
    setLeaving(false);
    if ('error' in r) setLeaveError(errorMessage(r.error, t('squads.leaveFailed')));
    else q.refetch();
  }

  async function chat() {
    const r = await openChat(id);
    if ('error' in r) dispatch(pushToast({ title: t('common.error'), message: errorMessage(r.error, t('messages.conversationsFailed')), kind: 'error' }));
    else navigate(`/messages/${r.data.id}`);
  }

  return (
    <div className="page" data-testid="squad-detail">
      <Link to="/my-squads" className="small">
        <ArrowLeft size={14} aria-hidden="true" /> {t('squads.back')}
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
                  <span className="pill">{categoryName(squad.category)}</span> · {t('squads.created', { date: longDate(squad.created_at) })} · {memberLabel(squad.member_count)}
                </div>
              </div>
              <button className="icon-btn" aria-label={t('squads.share')} onClick={share} data-testid="squad-share">
                {copied ? <Check size={18} aria-hidden="true" /> : <LinkIcon size={18} aria-hidden="true" />}
              </button>
              {squad.user_role === 'admin' && (
                <button className="icon-btn" aria-label={t('squads.settings')} onClick={() => setEditOpen(true)} data-testid="squad-settings-button">
                  <Settings size={18} aria-hidden="true" />
                </button>
              )}
            </div>
            <p className="pre-wrap">{squad.description || t('common.noDescription')}</p>
            <div className="row gap wrap">
              {squad.is_member ? (
                <>
                  <button className="btn btn-primary" onClick={chat} disabled={chatState.isLoading} data-testid="squad-chat">
                    <MessageCircle size={16} aria-hidden="true" /> {t('squads.chat')}
                  </button>
                  <button className="btn" disabled={squad.user_role === 'admin' || leaving} onClick={doLeave}>
                    {leaving ? t('squads.leaving') : t('squads.leave')}
                  </button>
                  {canManage && pendingRequests.length > 0 && (
                    <button className="btn" onClick={() => setShowRequests((s) => !s)} data-testid="manage-requests">
                      {t('squads.manageRequests', { count: pendingRequests.length })}
                    </button>
                  )}
                </>
              ) : squad.join_request_status === 'pending' ? (
                <span className="pill" data-testid="request-pending">
                  {t('squads.requestPending')}
                </span>
              ) : (
                <button className="btn btn-primary" onClick={() => setJoinOpen(true)} data-testid="request-join">
                  {detailJoinLabel(squad)}
                </button>
              )}
            </div>
            {leaveError && <div className="error-bar">{leaveError}</div>}
          </section>


          <SquadStatTiles memberCount={squad.member_count} week={squad.week} />

          {canManage && showRequests && <JoinRequests squadId={squad.id} requests={pendingRequests} />}
                    <SquadActivity squadId={squad.id} squadName={squad.name} />
        </div>

        <aside>
          <SquadCreator squad={squad} creator={members.find((m) => m.id === squad.creator_id)} />
          <SquadMembers squad={squad} />
          <SquadAchievements memberCount={squad.member_count} week={squad.week} />
        </aside>
      </div>
      <JoinModal squad={squad} open={joinOpen} onClose={() => setJoinOpen(false)} />
      {editOpen && <EditSquadModal squad={squad} open={editOpen} onClose={() => setEditOpen(false)} />}
    </div>
  );
}
