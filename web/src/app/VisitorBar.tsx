import { Star } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '../shared/brand';
import { useT } from '../shared/i18n';

/** The top of a shared page a visitor opened: the brand, and signing in or up (the page itself is read-only). */
export function VisitorBar() {
  const t = useT();
  return (
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
  );
}
