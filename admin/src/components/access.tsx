import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { useContentTypes } from '../content-types';
import { noPermissionMessage } from '../permission-words';
import { SYSTEM_SECTIONS, usePermissions } from '../permissions';
import { EmptyState, ErrorMessage, PageHeader, Progress } from './ui';

/** The first page the signed-in account may see, in the menu's order. */
function useLandingPath(): { pending: boolean; error?: unknown; path?: string } {
  const { me, may } = usePermissions();
  const types = useContentTypes();
  if (me.isPending || types.isPending) return { pending: true };
  if (me.isError) return { pending: false, error: me.error };
  const section = SYSTEM_SECTIONS.find((candidate) => may(candidate.read));
  const type = types.data?.[0]?.attachment_type;
  return { pending: false, path: section?.path ?? (type && `/content/${type}`) };
}

/** `/` and unknown addresses: on to the first page the account may see, or why there is none. */
export function Landing() {
  const landing = useLandingPath();
  if (landing.pending) return <Progress label="Loading…" />;
  if (landing.error) return <ErrorMessage error={landing.error} />;
  if (landing.path) return <Navigate to={landing.path} replace />;
  return (
    <>
      <PageHeader title="Welcome" />
      <EmptyState title="Your role opens no page here yet">
        Ask an administrator for a role that lets you see integrations, users, roles, webhooks, the audit log or
        content.
      </EmptyState>
    </>
  );
}

/** A page that needs `permission`: the page, or a refusal a person can act on (instead of the API's 403). */
export function RequirePermission({ permission, children }: { permission: string; children: ReactNode }) {
  const { me, may } = usePermissions();
  if (me.isPending) return <Progress label="Loading…" />;
  if (me.isError) return <ErrorMessage error={me.error} />;
  if (may(permission)) return children;
  return (
    <>
      <PageHeader title="No access" />
      <p className="message message-warning" role="alert">
        {noPermissionMessage(permission)}
      </p>
      <p>
        <Link to="/">Go to a page you can see</Link>
      </p>
    </>
  );
}
