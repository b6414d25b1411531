import { useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { pluralLabel, useContentTypes } from '../content-types';
import { useServices } from '../context';
import { OwnPasswordDialog } from './own-password-panel';
import { SYSTEM_SECTIONS, usePermissions } from '../permissions';
import { AccountMenu } from './account-menu';
import { PageErrorBoundary } from './page-error-boundary';

/**
 * The signed-in frame: header with the account menu, the main navigation (a menu button below 768 px) with only the
 * sections the account may read, and the page.
 */
export function Layout() {
  const { session } = useServices();
  const { me, may } = usePermissions();
  const types = useContentTypes();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const location = useLocation();
  const [shownAt, setShownAt] = useState(location.pathname);
  if (shownAt !== location.pathname) {
    setShownAt(location.pathname);
    setMenuOpen(false);
  }
  const system = SYSTEM_SECTIONS.filter((section) => may(section.read));
  const content = types.data ?? [];
  const signOut = () => {
    // The next account to sign in starts from its own first page, not from this one's.
    void navigate('/', { replace: true });
    void session.signOut();
  };
  const accountItems = [
    ...(me.data?.kind === 'user'
      ? [
          { label: 'Your password', onSelect: () => setPasswordOpen(true) },
          { label: 'Connected applications', onSelect: () => void navigate('/account/applications') },
        ]
      : []),
    { label: 'Sign out', onSelect: signOut },
  ];
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
        <AccountMenu name={me.data?.name ?? 'Account'} items={accountItems} />
      </header>
      <nav id="main-navigation" aria-label="Main" className={menuOpen ? 'sidebar open' : 'sidebar'}>
        <ul>
          {system.length > 0 && (
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
                    {system.map(({ label, path }) => (
                      <li key={path}>
                        <NavLink to={path}>{label}</NavLink>
                      </li>
                    ))}
                  </ul>
                </li>
              </ul>
            </li>
          )}
          {content.length > 0 && (
            <li>
              <span className="nav-group" id="nav-content">
                Content
              </span>
              <ul aria-labelledby="nav-content">
                {content.map((type) => (
                  <li key={type.attachment_type}>
                    <NavLink to={`/content/${type.attachment_type}`}>{pluralLabel(type.attachment_type)}</NavLink>
                  </li>
                ))}
              </ul>
            </li>
          )}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        <PageErrorBoundary resetKey={location.pathname + location.search}>
          <Outlet />
        </PageErrorBoundary>
      </main>
      <OwnPasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </div>
  );
}
