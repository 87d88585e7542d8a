import { Suspense, lazy, useEffect, useState } from 'react';
import { BookOpen, Camera, ChefHat, Clapperboard, Gamepad2, Headphones, MessageCircle, Palette, Star, Users, Volleyball } from 'lucide-react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../../core/store';
import type { AuthMode } from './AuthModal';
import { withTexts } from '../../shared/i18n/with-texts';
import { PRODUCT_NAME } from '../../shared/brand';
import { RotatingIcon } from '../../shared/RotatingIcon';

// the sign-in and sign-up forms load when first opened
const AuthModal = lazy(() => withTexts(() => import('./AuthModal')).then((m) => ({ default: m.AuthModal })));

// the hero's rotating picture (part 1 §2), drawn as SVG so it shows without a colour-emoji font
const EMOJIS = [Gamepad2, Headphones, BookOpen, Volleyball, Palette, ChefHat, Camera, Clapperboard];

/** `onSignInIntent`: the visitor opened the sign-in or sign-up form (the router starts loading what follows). */
export function LandingPage({ onSignInIntent }: { onSignInIntent?: () => void } = {}) {
  const session = useSession();
  const location = useLocation();
  // a shared page's sign-up prompt comes as /?join=1 and opens the sign-up form
  const joining = new URLSearchParams(location.search).has('join');
  const [mode, setMode] = useState<AuthMode>(joining ? 'register' : 'login');
  const [open, setOpen] = useState(location.pathname === '/login' || joining);
  useEffect(() => {
    if (open) onSignInIntent?.();
  }, [open, onSignInIntent]);

  if (session.token && session.user) return <Navigate to="/home" replace />;

  const openWith = (m: AuthMode) => {
    setMode(m);
    setOpen(true);
  };

  return (
    <div className="landing">
      <header className="landing-top">
        <div className="brand">
          <Star className="brand-emoji" size={22} aria-hidden="true" /> {PRODUCT_NAME}
        </div>
        <div className="row gap">
          <button className="btn" onClick={() => openWith('login')}>
            Log in
          </button>
          <button className="btn btn-primary" onClick={() => openWith('register')}>
            Sign up
          </button>
        </div>
      </header>
      <main>
        <section className="hero">
          <div className="hero-emoji" data-testid="landing-emoji" aria-hidden>
            {/* the hero emoji rotates every 2 s (part 1 §2) */}
            <RotatingIcon icons={EMOJIS} everyMs={2000} size={72} strokeWidth={1.5} />
          </div>
          <h1>Find Squads for Everything You Love</h1>
          <p className="hero-sub">Share honest product reviews with friends, follow people whose taste you trust and join squads around what you love.</p>
          <div className="row gap center">
            <button className="btn btn-primary btn-lg" onClick={() => openWith('register')}>
              Get Started
            </button>
            <button className="btn btn-lg" onClick={() => document.getElementById('learn-more')?.scrollIntoView({ behavior: 'smooth' })}>
              Learn more
            </button>
          </div>
        </section>
        <section id="learn-more" className="features">
          <div className="card feature">
            <Star className="feature-icon" size={32} aria-hidden="true" />
            <h2>Review products</h2>
            <p>Rate what you buy from 1 to 5 stars, add photos and tell your friends what you really think.</p>
          </div>
          <div className="card feature">
            <Users className="feature-icon" size={32} aria-hidden="true" />
            <h2>Join squads</h2>
            <p>Find people who love the same things, from mechanical keyboards to espresso.</p>
          </div>
          <div className="card feature">
            <MessageCircle className="feature-icon" size={32} aria-hidden="true" />
            <h2>Chat live</h2>
            <p>Message friends one to one or talk with your whole squad in real time.</p>
          </div>
        </section>
      </main>
      {open && (
        <Suspense fallback={null}>
          <AuthModal open={open} mode={mode} onMode={setMode} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
