import { Suspense, lazy, useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { Bell, Bookmark, Camera, Coffee, Compass, Gamepad2, Handshake, Headphones, House, Lightbulb, Menu, MessageCircle, Moon, NotebookPen, Settings, ShoppingBag, Star, Sun, User, Users, Watch } from 'lucide-react';
import { useAppDispatch, useSession } from '../core/store';
import { setDarkMode } from '../core/session';
import { useLogout } from '../features/auth/useLogout';
import { Realtime } from './realtime';
import { SearchBox } from '../features/search/SearchBox';
import { NotificationBell } from '../features/notifications/NotificationBell';
import { PRODUCT_NAME } from '../shared/brand';
import { hidesRightColumn } from './layout';
import { MessagesLink } from '../features/messages/MessagesLink';
import { AvatarMenu } from './AvatarMenu';
import { useT } from '../shared/i18n';
import { RotatingIcon } from '../shared/RotatingIcon';
import { useDocumentTitle } from '../shared/useDocumentTitle';
import { useMediaQuery } from '../shared/useMediaQuery';

// the top bar's rotating picture (part 1 §2), drawn as SVG so it shows without a colour-emoji font
const TOP_EMOJIS = [Star, Headphones, Gamepad2, Camera, Coffee, Watch, Lightbulb];

const SIDE_MENU = [
  { to: '/', label: 'nav.home', icon: House },
  { to: '/explore', label: 'nav.explore', icon: Compass },
  { to: '/notifications', label: 'nav.notifications', icon: Bell },
  { to: '/my-reviews', label: 'nav.myReviews', icon: NotebookPen },
  { to: '/my-squads', label: 'nav.mySquads', icon: Users },
  { to: '/profile', label: 'nav.profile', icon: User },
  { to: '/settings', label: 'nav.settings', icon: Settings },
] as const;

const SIDE_EXTRA = [
  { to: '/products', label: 'nav.products', icon: ShoppingBag },
  { to: '/friends', label: 'nav.friends', icon: Handshake },
  { to: '/saved', label: 'nav.saved', icon: Bookmark },
  { to: '/messages', label: 'nav.messages', icon: MessageCircle },
] as const;

// the spec's seven entries, plus the screens a phone could not reach otherwise
const MOBILE_MENU = [
  ['/home', 'nav.home'],
  ['/products', 'nav.products'],
  ['/friends', 'nav.friends'],
  ['/saved', 'nav.saved'],
  ['/explore', 'nav.explore'],
  ['/my-squads', 'nav.mySquads'],
  ['/my-reviews', 'nav.myReviews'],
  ['/messages', 'nav.messages'],
  ['/notifications', 'nav.notifications'],
  ['/profile', 'nav.profile'],
  ['/settings', 'nav.settings'],
] as const;

// its own chunk: a phone, which has no room for it, never loads it
const RightColumn = lazy(() => import('./RightColumn').then((m) => ({ default: m.RightColumn })));

/** Each menu screen's tab title; pages of one thing (a product, a member, a review...) set their own. */
const TITLES: Record<string, (typeof MOBILE_MENU)[number][1] | (typeof SIDE_EXTRA)[number]['label']> = {
  ...Object.fromEntries(MOBILE_MENU),
  '/messages': 'nav.messages',
};
const OWN_TITLE = /^\/(product|user|review|squads|lists|tags)\//;

export function Frame() {
  const dispatch = useAppDispatch();
  const { darkMode } = useSession();
  const location = useLocation();
  const logout = useLogout();
  const t = useT();
  const [menuOpen, setMenuOpen] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);

  useEffect(() => setMobileOpen(false), [location.pathname]);
  const titleKey = TITLES[location.pathname];
  useDocumentTitle(titleKey ? t(titleKey) : OWN_TITLE.test(location.pathname) ? undefined : '');

  const wide = hidesRightColumn(location.pathname);
  // below this width the right column is hidden (styles.css): not rendered at all, so a phone neither draws nor fetches it
  const roomForRightColumn = useMediaQuery('(min-width: 1101px)');
  // the same for the side menu below 801px (styles.css hides it; the phone's menu is the top bar's button)
  const roomForSideMenu = useMediaQuery('(min-width: 801px)');
  const isActive = (to: string) => (to === '/' ? location.pathname === '/' || location.pathname === '/home' : location.pathname.startsWith(to));

  return (
    <div className={`frame ${menuOpen ? '' : 'menu-closed'}`}>
      <Realtime />
      <header className="topbar">
        <div className="topbar-left">
          <button className="icon-btn mobile-only" aria-label={t('nav.menu')} data-testid="mobile-menu-toggle" onClick={() => setMobileOpen((o) => !o)}>
            <Menu size={20} aria-hidden="true" />
          </button>
          <button className="icon-btn desktop-only" aria-label={t('nav.toggleMenu')} onClick={() => setMenuOpen((o) => !o)}>
            <Menu size={20} aria-hidden="true" />
          </button>
          {/* named for the phone too, where the name is hidden and only the icon shows */}
          <Link to="/home" className="brand" aria-label={PRODUCT_NAME}>
            {/* the top bar emoji changes every 700 ms (part 1 §2) */}
            <RotatingIcon icons={TOP_EMOJIS} everyMs={700} className="brand-emoji" data-testid="topbar-emoji" size={22} aria-hidden="true" />
            <span className="brand-name">{PRODUCT_NAME}</span>
          </Link>
        </div>
        <SearchBox />
        <div className="topbar-right">
          <button
            className="icon-btn"
            aria-label={t('nav.toggleTheme')}
            data-testid="theme-toggle"
            onClick={() => dispatch(setDarkMode(!darkMode))}
            title={darkMode ? t('nav.lightMode') : t('nav.darkMode')}
          >
            {darkMode ? <Sun size={20} aria-hidden="true" /> : <Moon size={20} aria-hidden="true" />}
          </button>
          <NotificationBell />
          <MessagesLink />
          <AvatarMenu />
        </div>
      </header>
      {mobileOpen && (
        <nav className="mobile-menu" data-testid="mobile-menu" aria-label={t('nav.menu')}>
          {MOBILE_MENU.map(([to, label]) => (
            <Link key={to} to={to}>
              {t(label)}
            </Link>
          ))}
          <button className="link" onClick={() => void logout()}>
            {t('nav.logout')}
          </button>
        </nav>
      )}
      <div className="frame-body">
        {menuOpen && roomForSideMenu && (
          <nav className="sidemenu" data-testid="side-menu" aria-label={t('nav.menu')}>
            {SIDE_MENU.map((m) => (
              <NavLink key={m.to} to={m.to} className={() => `side-item ${isActive(m.to) ? 'active' : ''}`} end={m.to === '/'}>
                <m.icon className="side-icon" size={18} aria-hidden="true" />
                {t(m.label)}
              </NavLink>
            ))}
            <div className="side-sep" />
            {SIDE_EXTRA.map((m) => (
              <NavLink key={m.to} to={m.to} className={() => `side-item small ${isActive(m.to) ? 'active' : ''}`}>
                <m.icon className="side-icon" size={16} aria-hidden="true" />
                {t(m.label)}
              </NavLink>
            ))}
          </nav>
        )}
        <main className={`content ${wide ? 'content-wide' : ''}`}>
          <Outlet />
        </main>
        {!wide && roomForRightColumn && (
          <Suspense fallback={null}>
            <RightColumn />
          </Suspense>
        )}
      </div>
    </div>
  );
}
