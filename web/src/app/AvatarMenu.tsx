import { Link } from 'react-router-dom';
import { canModerate } from '../features/moderation/roles';
import { useSession } from '../core/store';
import { useLogout } from '../features/auth/useLogout';
import { Avatar } from '../shared/ui';
import { useMenu } from '../shared/useMenu';
import { personName } from '../shared/format';
import { useT } from '../shared/i18n';

/** The top bar's account menu: Profile, Settings, Logout. */
export function AvatarMenu() {
  const { user } = useSession();
  const { open, setOpen, ref, close } = useMenu();
  const logout = useLogout();
  const t = useT();
  return (
    <div className="avatar-menu" ref={ref}>
      <button className="icon-btn" aria-label={t('nav.accountMenu')} data-testid="avatar-menu" onClick={() => setOpen((o) => !o)}>
        <Avatar src={user?.avatar} name={personName(user)} size={34} />
      </button>
      {open && (
        <div className="dropdown menu-dropdown">
          <div className="dropdown-header">
            <span className="strong ellipsis">{personName(user)}</span>
          </div>
          <Link className="dropdown-item" to="/profile" onClick={close}>
            {t('nav.profile')}
          </Link>
          <Link className="dropdown-item" to="/settings" onClick={close}>
            {t('nav.settings')}
          </Link>
          {canModerate(user?.role) && (
            <Link className="dropdown-item" to="/moderation" data-testid="nav-moderation" onClick={close}>
              {t('moderation.title')}
            </Link>
          )}
          <button className="dropdown-item" onClick={() => void logout()}>
            {t('nav.logout')}
          </button>
        </div>
      )}
    </div>
  );
}
