import { useState } from 'react';
import type { ReportStatus } from '@app/contracts';
import { useSession } from '../../core/store';
import { longDate, personName } from '../../shared/format';
import { useT } from '../../shared/i18n';
import { Spinner } from '../../shared/ui';
import { useModerationLogQuery, useModerationReportsQuery } from './moderationApi';
import { ReportItem } from './ReportItem';
import { StaffSection } from './StaffSection';
import { canModerate } from './roles';

type Tab = ReportStatus | 'log' | 'staff';
const TABS: readonly Tab[] = ['open', 'actioned', 'dismissed', 'log', 'staff'];

/** The moderators' screen (issue 22 §3): reports with actions, the log, the staff. */
export function ModerationPage() {
  const t = useT();
  const { user } = useSession();
  const [tab, setTab] = useState<Tab>('open');
  const allowed = canModerate(user?.role);
  if (!allowed) return <div className="error-bar">{t('moderation.forbidden')}</div>;
  return (
    <div className="page" data-testid="moderation-page">
      <h1 className="page-title">{t('moderation.title')}</h1>
      <div className="tabs">
        {TABS.map((id) => (
          <button key={id} className={`tab ${tab === id ? 'active' : ''}`} onClick={() => setTab(id)}>
            {t(`moderation.tab_${id}`)}
          </button>
        ))}
      </div>
      {tab === 'log' ? <ModerationLog /> : tab === 'staff' ? <StaffSection isAdmin={user?.role === 'admin'} /> : <Reports status={tab} />}
    </div>
  );
}

function Reports({ status }: { status: ReportStatus }) {
  const t = useT();
  const { data, isLoading, isError } = useModerationReportsQuery(status);
  if (isLoading) return <Spinner label={t('common.loading')} />;
  if (isError) return <p className="error-text">{t('moderation.loadFailed')}</p>;
  if (!data?.length) return <p className="muted">{t('moderation.noReports')}</p>;
  return (
    <ul className="plain-list">
      {data.map((r) => (
        <ReportItem key={r.id} report={r} />
      ))}
    </ul>
  );
}

function ModerationLog() {
  const t = useT();
  const { data, isLoading, isError } = useModerationLogQuery();
  if (isLoading) return <Spinner label={t('common.loading')} />;
  if (isError) return <p className="error-text">{t('moderation.loadFailed')}</p>;
  return (
    <ul className="plain-list" data-testid="moderation-log">
      {(data ?? []).map((e) => (
        <li key={e.id} className="person-row">
          <div className="person-text">
            <div>
              <span className="strong">{personName(e.actor)}</span> {t(`moderation.action_${e.action}`)} <span className="strong">{personName(e.target_user)}</span>
              {e.until && ` · ${t('moderation.until', { date: longDate(e.until) })}`}
              {e.role && ` · ${t(`moderation.role_${e.role}`)}`}
            </div>
            <div className="muted small">
              {longDate(e.created_at)} · {e.reason}
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
