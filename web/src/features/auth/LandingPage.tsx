import { Suspense, lazy, useEffect, useState, useSyncExternalStore } from 'react';
import { BookOpen, Camera, ChefHat, Clapperboard, Gamepad2, Headphones, MessageCircle, Palette, Star, Users, Volleyball } from 'lucide-react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../../core/store';
import type { AuthMode } from './AuthModal';
import { withTexts } from '../../shared/i18n/with-texts';
import { PRODUCT_NAME } from '../../shared/brand';
import { RotatingIcon } from '../../shared/RotatingIcon';
import { chooseLandingLanguage, LANDING_TEXTS, LANGUAGE_NAMES, landingLanguage, onLandingLanguage, prerenderedLanguage } from './landing-texts';

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
  // the prerendered page is English: hydrated as such, then drawn in the visitor's language
  const lng = useSyncExternalStore(onLandingLanguage, landingLanguage, prerenderedLanguage);
  const x = LANDING_TEXTS[lng];

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
            {x.logIn}
          </button>
          <button className="btn btn-primary" onClick={() => openWith('register')}>
            {x.signUp}
          </button>
        </div>
      </header>
      <main>
        <section className="hero">
          <div className="hero-emoji" data-testid="landing-emoji" aria-hidden>
            {/* the hero emoji rotates every 2 s (part 1 §2) */}
            <RotatingIcon icons={EMOJIS} everyMs={2000} size={72} strokeWidth={1.5} />
          </div>
          <h1>{x.title}</h1>
          <p className="hero-sub">{x.sub}</p>
          <div className="row gap center">
            <button className="btn btn-primary btn-lg" onClick={() => openWith('register')}>
              {x.start}
            </button>
            <button className="btn btn-lg" onClick={() => document.getElementById('learn-more')?.scrollIntoView({ behavior: 'smooth' })}>
              {x.more}
            </button>
          </div>
          {/* buttons, not a select: a click before the app has taken the prerendered page over is held and given again (main.tsx) */}
          <div className="landing-language" role="group" aria-label={x.language} data-testid="landing-language">
            {(['en', 'tr'] as const).map((l) => (
              <button key={l} className="link small" lang={l} aria-pressed={lng === l} onClick={() => chooseLandingLanguage(l)}>
                {LANGUAGE_NAMES[l]}
              </button>
            ))}
          </div>
        </section>
        <section id="learn-more" className="features">
          <div className="card feature">
            <Star className="feature-icon" size={32} aria-hidden="true" />
            <h2>{x.reviewTitle}</h2>
            <p>{x.reviewText}</p>
          </div>
          <div className="card feature">
            <Users className="feature-icon" size={32} aria-hidden="true" />
            <h2>{x.squadsTitle}</h2>
            <p>{x.squadsText}</p>
          </div>
          <div className="card feature">
            <MessageCircle className="feature-icon" size={32} aria-hidden="true" />
            <h2>{x.chatTitle}</h2>
            <p>{x.chatText}</p>
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
