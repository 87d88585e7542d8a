import { Link } from 'react-router-dom';
import type { SquadMemberView, SquadView } from '@app/contracts';
import { Avatar } from '../../shared/ui';
import { useT } from '../../shared/i18n';

/** The creator's card: the squad's creator fields, the avatar from the member list when the squad has none. */
export function SquadCreator({ squad, creator }: { squad: SquadView; creator: SquadMemberView | undefined }) {
  const t = useT();
  return (
    <section className="card">
      <h2 className="panel-title">{t('squads.creatorTitle')}</h2>
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
          <div className="muted small">{t('squads.creator')}</div>
        </div>
      </div>
    </section>
  );
}
