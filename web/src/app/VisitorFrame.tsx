import { Star } from 'lucide-react';
import { Link, Outlet } from 'react-router-dom';
import { PRODUCT_NAME } from '../shared/brand';
import { useT } from '../shared/i18n';

/**
 * A shared page a visitor opened (issue 43 §3): the brand and a way to sign in or up on top, the page
 * below, read-only. A screen of its own (loaded with the texts, like the member's Frame).
 */
export function VisitorFrame() {
  const t = useT();
  return (
    <>
      <header className="landing-top visitor-bar" data-testid="visitor-bar">
        <Link to="/" className="brand">
          <Star className="brand-emoji" size={22} aria-hidden="true" /> {PRODUCT_NAME}
        </Link>
        <div className="row gap">
          <Link className="btn" to="/login">
            {t('truth.logIn')}
          </Link>
          <Link className="btn btn-primary" to="/?join=1">
            {t('truth.signUp')}
          </Link>
        </div>
      </header>
      <main className="visitor-page">
        <Outlet />
      </main>
    </>
  );
}
