import { errorMessage } from '../../core/api';
import { Skeleton } from '../../shared/ui';
import { useDiscoverSquadsQuery } from '../squads/squadsApi';
import { SquadCard } from './SquadCard';
import { useT } from '../../shared/i18n';

export function SquadPage({ page, search, last, onMore }: { page: number; search: string; last: boolean; onMore: () => void }) {
  const t = useT();
  const { data, isLoading, isError, error, refetch, isFetching } = useDiscoverSquadsQuery({ page, search });
  if (isLoading) return <Skeleton />;
  if (isError)
    return (
      <div className="error-bar">
        {errorMessage(error, t('squads.loadFailed'))}{' '}
        <button className="link" onClick={() => refetch()}>
          {t('common.tryAgain')}
        </button>
      </div>
    );
  if (!data) return null;
  return (
    <>
      {page === 1 && data.items.length === 0 && <p className="muted">{t('squads.noneFound')}</p>}
      {data.items.map((s) => (
        <SquadCard key={s.id} squad={s} />
      ))}
      {last && page < data.totalPages && (
        <div style={{ gridColumn: '1 / -1' }}>
          <button className="btn btn-block" onClick={onMore} disabled={isFetching}>
            {t('explore.moreSquads')}
          </button>
        </div>
      )}
    </>
  );
}
