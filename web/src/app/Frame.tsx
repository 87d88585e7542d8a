import { useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { Bell, Bookmark, Camera, Coffee, Compass, Gamepad2, Handshake, Headphones, House, Lightbulb, Menu, MessageCircle, Moon, NotebookPen, Settings, ShoppingBag, Star, Sun, User, Users, Watch } from 'lucide-react';
import { useAppDispatch, useSession } from '../core/store';
import { setDarkMode } from '../core/session';
import { useLogout } from '../features/auth/useLogout';
import { useRealtime } from './realtime';
import { SearchBox } from '../features/search/SearchBox';
import { NotificationBell } from '../features/notifications/NotificationBell';
import { TrendingPanel } from '../features/trending/TrendingPanel';
import { PeopleToFollow } from '../features/people/PeopleToFollow';
import { PRODUCT_NAME } from '../shared/brand';
import { hidesRightColumn } from './layout';
import { MessagesLink } from '../features/messages/MessagesLink';
import { AvatarMenu } from './AvatarMenu';

// the top bar's rotating picture (part 1 §2), drawn as SVG so it shows without a colour-emoji font
const TOP_EMOJIS = [Star, Headphones, Gamepad2, Camera, Coffee, Watch, Lightbulb];

const SIDE_MENU = [
  { to: '/', label: 'Home', icon: House },
  { to: '/explore', label: 'Explore', icon: Compass },
  { to: '/notifications', label: 'Notifications', icon: Bell },
  { to: '/my-reviews', label: 'My Reviews', icon: NotebookPen },
  { to: '/my-squads', label: 'My Squads', icon: Users },
  { to: '/profile', label: 'Profile', icon: User },
  { to: '/settings', label: 'Settings', icon: Settings },
];

const SIDE_EXTRA = [
  { to: '/products', label: 'Products', icon: ShoppingBag },
  { to: '/friends', label: 'Friends', icon: Handshake },
  { to: '/saved', label: 'Saved', icon: Bookmark },
  { to: '/messages', label: 'Messages', icon: MessageCircle },
];

export function Frame() {
  useRealtime();
  const dispatch = useAppDispatch();
  const { darkMode } = useSession();
  const location = useLocation();
  const logout = useLogout();
  const [emoji, setEmoji] = useState(0);
  const [menuOpen, setMenuOpen] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);

  // the top bar emoji changes every 700 ms (part 1 §2)
  useEffect(() => {
    const t = setInterval(() => setEmoji((i) => (i + 1) % TOP_EMOJIS.length), 700);
    return () => clearInterval(t);
  }, []);
  useEffect(() => setMobileOpen(false), [location.pathname]);

  const BrandIcon = TOP_EMOJIS[emoji];
  const wide = hidesRightColumn(location.pathname);
  const isActive = (to: string) => (to === '/' ? location.pathname === '/' || location.pathname === '/home' : location.pathname.startsWith(to));

  return (
    <div className={`frame ${menuOpen ? '' : 'menu-closed'}`}>
      <header className="topbar">
        <div className="topbar-left">
          <button className="icon-btn mobile-only" aria-label="Menu" data-testid="mobile-menu-toggle" onClick={() => setMobileOpen((o) => !o)}>
            <Menu size={20} aria-hidden="true" />
          </button>
          <button className="icon-btn desktop-only" aria-label="Toggle side menu" onClick={() => setMenuOpen((o) => !o)}>
            <Menu size={20} aria-hidden="true" />
          </button>
          <Link to="/home" className="brand">
            <BrandIcon className="brand-emoji" data-testid="topbar-emoji" size={22} aria-hidden="true" />
            <span className="brand-name">{PRODUCT_NAME}</span>
          </Link>
        </div>
        <SearchBox />
        <div className="topbar-right">
          <button
            className="icon-btn"
            aria-label="Toggle theme"
            data-testid="theme-toggle"
            onClick={() => dispatch(setDarkMode(!darkMode))}
            title={darkMode ? 'Light mode' : 'Dark mode'}
          >
            {darkMode ? <Sun size={20} aria-hidden="true" /> : <Moon size={20} aria-hidden="true" />}
          </button>
          <NotificationBell />
          <MessagesLink />
          <AvatarMenu />
        </div>
      </header>
      {mobileOpen && (
        <nav className="mobile-menu" data-testid="mobile-menu">
          {/* the spec's seven entries, plus the screens a phone could not reach otherwise */}
          <Link to="/home">Home</Link>
          <Link to="/products">Products</Link>
          <Link to="/friends">Friends</Link>
          <Link to="/saved">Saved</Link>
          <Link to="/explore">Explore</Link>
          <Link to="/my-squads">My Squads</Link>
          <Link to="/my-reviews">My Reviews</Link>
          <Link to="/notifications">Notifications</Link>
          <Link to="/profile">Profile</Link>
          <Link to="/settings">Settings</Link>
          <button className="link" onClick={() => void logout()}>
            Logout
          </button>
        </nav>
      )}
      <div className="frame-body">
        {menuOpen && (
          <nav className="sidemenu" data-testid="side-menu">
            {SIDE_MENU.map((m) => (
              <NavLink key={m.to} to={m.to} className={() => `side-item ${isActive(m.to) ? 'active' : ''}`} end={m.to === '/'}>
                <m.icon className="side-icon" size={18} aria-hidden="true" />
                {m.label}
              </NavLink>
            ))}
            <div className="side-sep" />
            {SIDE_EXTRA.map((m) => (
              <NavLink key={m.to} to={m.to} className={() => `side-item small ${isActive(m.to) ? 'active' : ''}`}>
                <m.icon className="side-icon" size={16} aria-hidden="true" />
                {m.label}
              </NavLink>
            ))}
          </nav>
        )}
        <main className={`content ${wide ? 'content-wide' : ''}`}>
          <Outlet />
        </main>
        {!wide && (
          <aside className="rightcol" data-testid="right-column">
            <TrendingPanel />
            <PeopleToFollow />
          </aside>
        )}
      </div>
    </div>
  );
}
