import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes, useMatch } from 'react-router';
import { CALLBACK_PATH } from './auth/authorization-flow';
import { CallbackPage } from './auth/callback-page';
import { SignInPage } from './auth/sign-in-page';
import { Landing, RequirePermission } from './components/access';
import { Layout } from './components/layout';
import { AdminServicesProvider, useSessionState, type AdminServices } from './context';
import { ConnectedAppsPage } from './pages/account/connected-apps-page';
import { AuditPage } from './pages/system/audit/audit-page';
import { ContentDetailPage, ContentListPage } from './pages/content/content-pages';
import { IntegrationsPage } from './pages/system/integrations/integrations-page';
import { OAuthClientsPage } from './pages/system/oauth-clients/oauth-clients-page';
import { RolesPage } from './pages/system/roles/roles-page';
import { UsersPage } from './pages/system/users/users-page';
import { WebhookPage } from './pages/system/webhooks/webhook-page';
import { WebhooksPage } from './pages/system/webhooks/webhooks-page';

const needs = (permission: string, page: ReactNode) => (
  <RequirePermission permission={permission}>{page}</RequirePermission>
);

export function AdminRoutes() {
  const state = useSessionState();
  // The authorization response arrives signed out: the callback comes before the sign-in check.
  const callback = useMatch(CALLBACK_PATH);
  if (callback) return <CallbackPage />;
  if (!state.signedIn) return <SignInPage message={state.message} />;
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Landing />} />
        <Route path="settings/system/integrations" element={needs('integration:read', <IntegrationsPage />)} />
        <Route path="settings/system/applications" element={needs('oauth-client:read', <OAuthClientsPage />)} />
        <Route path="settings/system/roles" element={needs('role:read', <RolesPage />)} />
        <Route path="settings/system/users" element={needs('user:read', <UsersPage />)} />
        <Route path="settings/system/webhooks" element={needs('webhook:write', <WebhooksPage />)} />
        <Route path="settings/system/webhooks/:id" element={needs('webhook:write', <WebhookPage />)} />
        <Route path="settings/system/audit" element={needs('audit:read', <AuditPage />)} />
        {/* Every account may see its own consents (GET /api/me/grants needs a token, no permission). */}
        <Route path="account/applications" element={<ConnectedAppsPage />} />
        {/* GET /files/fields lists only the types the account may read: the content pages check it themselves. */}
        <Route path="content/:type" element={<ContentListPage />} />
        <Route path="content/:type/:id" element={<ContentDetailPage />} />
        <Route path="*" element={<Landing />} />
      </Route>
    </Routes>
  );
}

/** The whole interface: services, query cache (emptied at sign-out), router under /admin. */
export function App({ services }: { services: AdminServices }) {
  const [queries] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  useEffect(() => services.session.subscribe((state) => !state.signedIn && queries.clear()), [services, queries]);
  return (
    <AdminServicesProvider services={services}>
      <QueryClientProvider client={queries}>
        <BrowserRouter basename="/admin">
          <AdminRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </AdminServicesProvider>
  );
}
