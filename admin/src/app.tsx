import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { SignInPage } from './auth/sign-in-page';
import { Layout } from './components/layout';
import { AdminServicesProvider, useSessionState, type AdminServices } from './context';
import { ContentDetailPage, ContentListPage } from './pages/content-pages';
import { IntegrationsPage } from './pages/integrations-page';
import { RolesPage } from './pages/roles-page';
import { UsersPage } from './pages/users-page';
import { WebhookPage, WebhooksPage } from './pages/webhooks-page';

export function AdminRoutes() {
  const state = useSessionState();
  if (!state.signedIn) return <SignInPage message={state.message} />;
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/settings/system/integrations" replace />} />
        <Route path="settings/system/integrations" element={<IntegrationsPage />} />
        <Route path="settings/system/roles" element={<RolesPage />} />
        <Route path="settings/system/users" element={<UsersPage />} />
        <Route path="settings/system/webhooks" element={<WebhooksPage />} />
        <Route path="settings/system/webhooks/:id" element={<WebhookPage />} />
        <Route path="content/:type" element={<ContentListPage />} />
        <Route path="content/:type/:id" element={<ContentDetailPage />} />
        <Route path="*" element={<Navigate to="/settings/system/integrations" replace />} />
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
