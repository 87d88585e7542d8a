import { Link, useLocation } from 'react-router-dom';
import { MapPinOff } from 'lucide-react';
import { useSession } from '../core/store';
import { Trans, useT } from './i18n';

/** An unknown address, or a product, review or member that is not (or no longer) there: says so and keeps the URL, with a way home. */
export function NotFoundPage() {
  const { token, user } = useSession();
  const { pathname } = useLocation();
  const t = useT();
  return (
    <div className="page">
      <div className="card empty" data-testid="not-found">
        <MapPinOff className="empty-icon" size={40} aria-hidden="true" />
        <h1>{t('notFound.title')}</h1>
        <p className="muted">
          <Trans i18nKey="notFound.nothingAt" values={{ path: pathname }} components={{ code: <code /> }} />
        </p>
        <Link className="btn btn-primary" to={token && user ? '/home' : '/'}>
          {t('notFound.home')}
        </Link>
      </div>
    </div>
  );
}
