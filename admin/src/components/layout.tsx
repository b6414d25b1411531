import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { unwrap } from '../api/client';
import { pluralLabel, useContentTypes } from '../content-types';
import { useApi, useServices } from '../context';

const SYSTEM = [
  ['Integrations', '/settings/system/integrations'],
  ['Roles', '/settings/system/roles'],
  ['Users', '/settings/system/users'],
  ['Webhooks', '/settings/system/webhooks'],
] as const;

/** The signed-in frame: header, main navigation (a menu button below 768 px) and the page. */
export function Layout() {
  const { session } = useServices();
  const api = useApi();
  const me = useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/api/me')) });
  const types = useContentTypes();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const [shownAt, setShownAt] = useState(location.pathname);
  if (shownAt !== location.pathname) {
    setShownAt(location.pathname);
    setMenuOpen(false);
  }
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="main-navigation"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <span className="brand">Administration</span>
        <span className="whoami">{me.data ? me.data.name : ''}</span>
        <button type="button" onClick={() => void session.signOut()}>
          Sign out
        </button>
      </header>
      <nav id="main-navigation" aria-label="Main" className={menuOpen ? 'sidebar open' : 'sidebar'}>
        <ul>
          <li>
            <span className="nav-group" id="nav-settings">
              Settings
            </span>
            <ul aria-labelledby="nav-settings">
              <li>
                <span className="nav-group" id="nav-system">
                  System
                </span>
                <ul aria-labelledby="nav-system">
                  {SYSTEM.map(([label, to]) => (
                    <li key={to}>
                      <NavLink to={to}>{label}</NavLink>
                    </li>
                  ))}
                </ul>
              </li>
            </ul>
          </li>
          <li>
            <span className="nav-group" id="nav-content">
              Content
            </span>
            <ul aria-labelledby="nav-content">
              {(types.data ?? []).map((type) => (
                <li key={type.attachment_type}>
                  <NavLink to={`/content/${type.attachment_type}`}>{pluralLabel(type.attachment_type)}</NavLink>
                </li>
              ))}
            </ul>
          </li>
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
