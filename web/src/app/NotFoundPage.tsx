import { Link, useLocation } from 'react-router-dom';
import { MapPinOff } from 'lucide-react';
import { useSession } from '../core/store';

/** An unknown address: says so and keeps the URL, with a way home. */
export function NotFoundPage() {
  const { token, user } = useSession();
  const { pathname } = useLocation();
  return (
    <div className="page">
      <div className="card empty" data-testid="not-found">
        <MapPinOff className="empty-icon" size={40} aria-hidden="true" />
        <h1>Page Not Found</h1>
        <p className="muted">
          There is nothing at <code>{pathname}</code>.
        </p>
        <Link className="btn btn-primary" to={token && user ? '/home' : '/'}>
          Go Home
        </Link>
      </div>
    </div>
  );
}
