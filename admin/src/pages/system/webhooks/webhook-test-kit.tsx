import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { Schemas } from '../../../api/client';
import { json, renderPage, type Handler } from '../../../testing/render';
import { WebhookPage } from './webhook-page';
import { WebhooksPage } from './webhooks-page';

/* What the webhook pages' tests share: an endpoint and a delivery as the API answers them, and the service. */

export const endpoint = (overrides: Partial<Schemas['WebhookEndpoint']> = {}): Schemas['WebhookEndpoint'] => ({
  id: 1,
  url: 'https://hooks.example.org/files',
  signature_scheme: 'github',
  previous_secret_expires_at: null,
  events: ['*'],
  ordering: 'none',
  payload: 'full',
  rate_limit: null,
  auto_recover: false,
  filter: null,
  description: 'ERP file sync',
  active: true,
  disabled_reason: null,
  failing_since: null,
  warned_at: null,
  next_probe_at: null,
  last_delivery: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

export const delivery = (overrides: Partial<Schemas['WebhookDelivery']> = {}): Schemas['WebhookDelivery'] => ({
  id: 7,
  event_id: 'evt_one',
  event: 'file.created',
  status: 'succeeded',
  attempts: 1,
  next_attempt_at: null,
  last_status_code: 200,
  last_error: null,
  created_at: '2026-11-22T12:00:00.000Z',
  completed_at: '2026-11-22T12:00:01.000Z',
  attempt_log: [
    { attempted_at: '2026-11-22T12:00:00.500Z', status_code: 200, error: null, duration_ms: 87, response_body: 'ok' },
  ],
  ...overrides,
});

export const signingKey = (overrides: Partial<Schemas['WebhookSigningKey']> = {}): Schemas['WebhookSigningKey'] => ({
  kid: 'wh-first',
  algorithm: 'EdDSA',
  state: 'signing',
  activates_at: '2026-11-01T10:00:00.000Z',
  retired_at: null,
  published_until: null,
  ...overrides,
});

export const endpointPage = (items: Schemas['WebhookEndpoint'][], total = items.length, offset = 0) =>
  json({ items, total, limit: 20, offset });

export const page = (items: Schemas['WebhookDelivery'][], total = items.length, offset = 0) =>
  json({ items, total, limit: 20, offset });

const EVENT_TYPES = ['file.created', 'file.updated', 'file.deleted', 'file.reordered', 'webhook.ping'].map((event) => ({
  event,
  description: `About ${event}`,
  subscribable: event !== 'webhook.ping',
  filterable_by_attachment_type: event.startsWith('file.'),
  data_schema: {},
  openapi_schema: `#/components/schemas/WebhookEvent_${event}`,
}));

/** The routes every page reads; `routes` adds to them or replaces them. */
const service = (routes: Record<string, Handler> = {}): Record<string, Handler> => ({
  'GET /api/webhooks/event-types': () => json(EVENT_TYPES),
  'GET /files/fields': () => json([{ attachment_type: 'product', fields: [] }]),
  'GET /api/webhooks': () => endpointPage([endpoint()]),
  // Before `:id`, which its path would match too.
  'GET /api/webhooks/signing-keys': () => json([signingKey()]),
  'GET /api/webhooks/:id': () => json(endpoint()),
  'GET /api/webhooks/:id/deliveries': () => page([delivery()]),
  ...routes,
});

export const renderList = (routes?: Record<string, Handler>, search = '') =>
  renderPage(<WebhooksPage />, { routes: service(routes), path: `/settings/system/webhooks${search}` });

export const renderDetail = (routes?: Record<string, Handler>) =>
  renderPage(
    <Routes>
      <Route path="/settings/system/webhooks" element={<WebhooksPage />} />
      <Route path="/settings/system/webhooks/:id" element={<WebhookPage />} />
    </Routes>,
    { routes: service(routes), path: '/settings/system/webhooks/1' },
  );

export const dialog = (name: string | RegExp) => screen.getByRole('dialog', { name });

/** What an input holds. */
export const value = (element: HTMLElement) => (element as HTMLInputElement).value;

/** The text of the elements that describe an element (aria-describedby). */
export const description = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
