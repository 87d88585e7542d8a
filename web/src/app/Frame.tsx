import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useAppDispatch, useSession } from './store';
import { setDarkMode, signedOut } from './session';
import { useRealtime } from './socket';
import { Avatar, useClickOutside } from '../shared/ui';
import { personName } from '../shared/format';
import { SearchBox } from '../features/search/SearchBox';
import { NotificationBell } from '../features/notifications/NotificationBell';
import { TrendingPanel } from '../features/trending/TrendingPanel';
import { PeopleToFollow } from '../features/people/PeopleToFollow';
import { PRODUCT_NAME } from '../features/auth/AuthModal';
import { useConversationsQuery } from '../features/messages/messagesApi';

const TOP_EMOJIS = ['⭐', '🎧', '🎮', '📷', '☕', '⌚', '💡'];

export const SIDE_MENU = [
  { to: '/', label: 'Home', icon: '🏠' },
  { to: '/explore', label: 'Explore', icon: '🧭' },
  { to: '/notifications', label: 'Notifications', icon: '🔔' },
  { to: '/my-reviews', label: 'My Reviews', icon: '📝' },
  { to: '/my-squads', label: 'My Squads', icon: '👥' },
  { to: '/profile', label: 'Profile', icon: '👤' },
  { to: '/settings', label: 'Settings', icon: '⚙️' },
];

/** Routes with a wider content area and no right column (part 1 §2). */
export function hidesRightColumn(pathname: string): boolean {
  return pathname === '/settings' || pathname === '/messages' || pathname.startsWith('/messages/') || pathname.startsWith('/squads/');
}

function useLogout() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return () => {
    dispatch(signedOut());
    navigate('/', { replace: true });
  };
}

function AvatarMenu() {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useClickOutside(ref, close, open);
  const logout = useLogout();
  return (
    <div className="avatar-menu" ref={ref}>
      <button className="icon-btn" aria-label="Account menu" data-testid="avatar-menu" onClick={() => setOpen((o) => !o)}>
        <Avatar src={user?.avatar} name={personName(user)} size={34} />
      </button>
      {open && (
        <div className="dropdown menu-dropdown">
          <div className="dropdown-header">
            <span className="strong ellipsis">{personName(user)}</span>
          </div>
          <Link className="dropdown-item" to="/profile" onClick={close}>
            Profile
          </Link>
          <Link className="dropdown-item" to="/settings" onClick={close}>
            Settings
          </Link>
          <button className="dropdown-item" onClick={logout}>
            Logout
          </button>
        </div>
      )}
    </div>
  );
}

function MessagesLink() {
  const { data } = useConversationsQuery(undefined, { pollingInterval: 60_000 });
  const unread = (data ?? []).reduce((n, c) => n + (c.unread_count ?? 0), 0);
  return (
    <Link className="icon-btn bell" to="/messages" aria-label="Messages" data-testid="messages-link">
      💬
      {unread > 0 && <span className="badge">{unread > 99 ? '99+' : unread}</span>}
    </Link>
  );
}

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

  const wide = hidesRightColumn(location.pathname);
  const isActive = (to: string) => (to === '/' ? location.pathname === '/' || location.pathname === '/home' : location.pathname.startsWith(to));

  return (
    <div className={`frame ${menuOpen ? '' : 'menu-closed'}`}>
      <header className="topbar">
        <div className="topbar-left">
          <button className="icon-btn mobile-only" aria-label="Menu" data-testid="mobile-menu-toggle" onClick={() => setMobileOpen((o) => !o)}>
            ☰
          </button>
          <button className="icon-btn desktop-only" aria-label="Toggle side menu" onClick={() => setMenuOpen((o) => !o)}>
            ☰
          </button>
          <Link to="/home" className="brand">
            <span className="brand-emoji" data-testid="topbar-emoji">
              {TOP_EMOJIS[emoji]}
            </span>
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
            {darkMode ? '☀️' : '🌙'}
          </button>
          <NotificationBell />
          <MessagesLink />
          <AvatarMenu />
        </div>
      </header>
      {mobileOpen && (
        <nav className="mobile-menu" data-testid="mobile-menu">
          <Link to="/home">Home</Link>
          <Link to="/products">Products</Link>
          <Link to="/friends">Friends</Link>
          <Link to="/saved">Saved</Link>
          <Link to="/profile">Profile</Link>
          <Link to="/settings">Settings</Link>
          <button className="link" onClick={logout}>
            Logout
          </button>
        </nav>
      )}
      <div className="frame-body">
        {menuOpen && (
          <nav className="sidemenu" data-testid="side-menu">
            {SIDE_MENU.map((m) => (
              <NavLink key={m.to} to={m.to} className={() => `side-item ${isActive(m.to) ? 'active' : ''}`} end={m.to === '/'}>
                <span className="side-icon">{m.icon}</span>
                {m.label}
              </NavLink>
            ))}
            <div className="side-sep" />
            <NavLink to="/products" className={() => `side-item small ${isActive('/products') ? 'active' : ''}`}>
              <span className="side-icon">🛍️</span>Products
            </NavLink>
            <NavLink to="/friends" className={() => `side-item small ${isActive('/friends') ? 'active' : ''}`}>
              <span className="side-icon">🤝</span>Friends
            </NavLink>
            <NavLink to="/saved" className={() => `side-item small ${isActive('/saved') ? 'active' : ''}`}>
              <span className="side-icon">🔖</span>Saved
            </NavLink>
            <NavLink to="/messages" className={() => `side-item small ${isActive('/messages') ? 'active' : ''}`}>
              <span className="side-icon">💬</span>Messages
            </NavLink>
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
