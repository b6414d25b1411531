import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Schemas } from '../../../api/client';
import { json, problem, renderPage, type Handler } from '../../../testing/render';
import { toLocalInput } from './recover-dialog';
import { WebhookPage, WebhooksPage } from './webhooks-page';

const endpoint = (overrides: Partial<Schemas['WebhookEndpoint']> = {}): Schemas['WebhookEndpoint'] => ({
  id: 1,
  url: 'https://hooks.example.org/files',
  signature_scheme: 'github',
  previous_secret_expires_at: null,
  events: ['*'],
  filter: null,
  description: 'ERP file sync',
  active: true,
  disabled_reason: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const delivery = (overrides: Partial<Schemas['WebhookDelivery']> = {}): Schemas['WebhookDelivery'] => ({
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

const page = (items: Schemas['WebhookDelivery'][], total = items.length, offset = 0) =>
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
  'GET /api/webhooks': () => json([endpoint()]),
  'GET /api/webhooks/:id': () => json(endpoint()),
  'GET /api/webhooks/:id/deliveries': () => page([delivery()]),
  ...routes,
});

const renderList = (routes?: Record<string, Handler>) =>
  renderPage(<WebhooksPage />, { routes: service(routes), path: '/settings/system/webhooks' });

const renderDetail = (routes?: Record<string, Handler>) =>
  renderPage(
    <Routes>
      <Route path="/settings/system/webhooks" element={<WebhooksPage />} />
      <Route path="/settings/system/webhooks/:id" element={<WebhookPage />} />
    </Routes>,
    { routes: service(routes), path: '/settings/system/webhooks/1' },
  );

const dialog = (name: string | RegExp) => screen.getByRole('dialog', { name });

afterEach(() => {
  vi.useRealTimers();
});

describe('WebhooksPage', () => {
  it('lists the endpoints with their events, state and description, each URL linking to its page', async () => {
    renderList({
      'GET /api/webhooks': () =>
        json([
          endpoint(),
          endpoint({
            id: 2,
            url: 'https://erp.example.com/in',
            events: ['file.created', 'file.deleted'],
            description: null,
            active: false,
            disabled_reason: 'The endpoint answered 410 Gone.',
          }),
        ]),
    });

    const first = await screen.findByRole('row', { name: /hooks\.example\.org/ });
    expect(within(first).getByRole('link', { name: 'https://hooks.example.org/files' }).getAttribute('href')).toBe(
      '/settings/system/webhooks/1',
    );
    expect(first.textContent).toContain('All events');
    expect(first.textContent).toContain('Active');
    expect(first.textContent).toContain('ERP file sync');
    const second = screen.getByRole('row', { name: /erp\.example\.com/ });
    expect(second.textContent).toContain('file.created');
    expect(second.textContent).toContain('file.deleted');
    expect(second.textContent).toContain('Disabled by the service');
    expect(second.textContent).toContain('The endpoint answered 410 Gone.');
  });

  it('says what to do when there is no endpoint yet', async () => {
    renderList({ 'GET /api/webhooks': () => json([]) });

    expect(await screen.findByText('No webhooks yet')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add webhook' }).disabled).toBe(false);
  });

  it('registers an endpoint with the chosen events, scheme and filter, and shows its secret exactly once', async () => {
    const user = userEvent.setup();
    let registered = false;
    const { calls } = renderList({
      'GET /api/webhooks': () =>
        json(registered ? [endpoint(), endpoint({ id: 2, url: 'https://new.example/h' })] : [endpoint()]),
      'POST /api/webhooks': () => {
        registered = true;
        return json(endpoint({ id: 2, url: 'https://new.example/h', secret: 'whsec_c2VjcmV0' }), 201);
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = dialog('Add webhook');
    await user.type(within(form).getByLabelText('URL'), 'https://new.example/h');
    await user.click(within(form).getByRole('checkbox', { name: 'All events' }));
    await user.click(await within(form).findByRole('checkbox', { name: 'file.created' }));
    await user.click(within(form).getByRole('checkbox', { name: 'file.deleted' }));
    expect(within(form).queryByRole('checkbox', { name: 'webhook.ping' })).toBeNull();
    await user.click(await within(form).findByRole('checkbox', { name: 'Products' }));
    await user.click(within(form).getByRole('radio', { name: 'Standard Webhooks' }));
    await user.type(within(form).getByLabelText('Description'), 'Search index');
    await user.click(within(form).getByRole('button', { name: 'Create' }));

    const shown = await screen.findByRole('dialog', { name: 'Webhook added' });
    expect(value(within(shown).getByLabelText('Signing secret'))).toBe('whsec_c2VjcmV0');
    expect(within(shown).getByRole('note').textContent).toContain('will not be shown again');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      url: 'https://new.example/h',
      events: ['file.created', 'file.deleted'],
      signature_scheme: 'standard',
      filter: { attachment_types: ['product'] },
      description: 'Search index',
    });
    expect(await screen.findByRole('row', { name: /new\.example/ })).toBeTruthy();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue('whsec_c2VjcmV0')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(value(within(dialog('Add webhook')).getByLabelText('URL'))).toBe('');
  });

  it('shows why the service refused a URL, at the URL field, and no secret', async () => {
    const user = userEvent.setup();
    renderList({
      'POST /api/webhooks': () =>
        problem(400, 'Webhook URL refused', 'The host intranet.local resolves to the non-public address 10.0.0.8.', {
          type: '/problems/unsafe-webhook-url',
        }),
    });

    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = dialog('Add webhook');
    await user.type(within(form).getByLabelText('URL'), 'https://intranet.local/hook');
    await user.click(within(form).getByRole('button', { name: 'Create' }));

    expect((await within(form).findByRole('alert')).textContent).toContain(
      'Webhook URL refused: The host intranet.local resolves to the non-public address 10.0.0.8.',
    );
    const url = within(form).getByLabelText('URL');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(description(url)).toContain('non-public address 10.0.0.8');
    expect(within(form).queryByLabelText('Signing secret')).toBeNull();
  });

  it('asks for a URL and at least one event before sending anything', async () => {
    const user = userEvent.setup();
    const { calls } = renderList();

    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = dialog('Add webhook');
    await user.click(within(form).getByRole('checkbox', { name: 'All events' }));
    await user.click(within(form).getByRole('button', { name: 'Create' }));

    expect(description(within(form).getByLabelText('URL'))).toContain('Enter the URL');
    expect(within(form).getByText('Choose at least one event, or all events.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});

describe('WebhookPage', () => {
  it('shows the endpoint and its delivery log, each delivery expandable into its attempts', async () => {
    const user = userEvent.setup();
    renderDetail({
      'GET /api/webhooks/:id/deliveries': () =>
        page([
          delivery({
            id: 8,
            event_id: 'evt_failing',
            status: 'failed',
            attempts: 2,
            last_status_code: 500,
            attempt_log: [
              {
                attempted_at: '2026-11-22T12:00:00.000Z',
                status_code: null,
                error: 'connect ECONNREFUSED',
                duration_ms: 3,
                response_body: null,
              },
              {
                attempted_at: '2026-11-22T12:00:05.000Z',
                status_code: 500,
                error: 'HTTP 500',
                duration_ms: 41,
                response_body: 'database down',
              },
            ],
          }),
          delivery(),
        ]),
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'https://hooks.example.org/files' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Deliveries' })).toBeTruthy();
    const failing = await screen.findByRole('row', { name: /evt_failing/ });
    expect(failing.textContent).toContain('Failed');
    expect(failing.textContent).toContain('HTTP 500');
    expect(screen.queryByText('database down')).toBeNull();

    const details = within(failing).getByRole('button', { name: 'Details' });
    expect(details.getAttribute('aria-expanded')).toBe('false');
    await user.click(details);

    expect(details.getAttribute('aria-expanded')).toBe('true');
    const attempts = within(screen.getByRole('list', { name: 'Attempts of evt_failing' })).getAllByRole('listitem');
    expect(attempts[0].textContent).toContain('No answer');
    expect(attempts[0].textContent).toContain('3 ms');
    expect(attempts[0].textContent).toContain('connect ECONNREFUSED');
    expect(attempts[1].textContent).toContain('HTTP 500');
    expect(attempts[1].textContent).toContain('41 ms');
    expect(attempts[1].textContent).toContain('database down');
  });

  it('sends a ping and lists its delivery, reading the log again while it is pending', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    let state: 'none' | 'pending' | 'done' = 'none';
    const ping = delivery({
      id: 9,
      event_id: 'evt_ping',
      event: 'webhook.ping',
      status: 'pending',
      attempts: 0,
      attempt_log: [],
    });
    const { calls } = renderDetail({
      'GET /api/webhooks/:id/deliveries': () => {
        if (state === 'none') return page([]);
        if (state === 'pending') return page([{ ...ping, next_attempt_at: '2026-11-22T12:00:00.000Z' }]);
        return page([{ ...ping, status: 'succeeded', attempts: 1, last_status_code: 204 }]);
      },
      'POST /api/webhooks/:id/ping': () => {
        state = 'pending';
        return json({ event_id: 'evt_ping' }, 202);
      },
    });
    expect(await screen.findByText('No deliveries yet')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Send ping' }));

    expect((await screen.findByRole('status')).textContent).toContain('Ping sent as event evt_ping');
    const row = await screen.findByRole('row', { name: /evt_ping/ });
    expect(row.textContent).toContain('Pending');
    expect(within(row).getByText('webhook.ping')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.path).toBe('/api/webhooks/1/ping');
    state = 'done';
    await vi.advanceTimersByTimeAsync(3000);
    await waitFor(() => expect(screen.getByRole('row', { name: /evt_ping/ }).textContent).toContain('Succeeded'));
    const reads = calls.filter((call) => call.path.startsWith('/api/webhooks/1/deliveries')).length;
    await vi.advanceTimersByTimeAsync(6000);
    expect(calls.filter((call) => call.path.startsWith('/api/webhooks/1/deliveries'))).toHaveLength(reads);
  });

  it('redelivers one delivery and says how its new attempt went', async () => {
    const user = userEvent.setup();
    const { calls } = renderDetail({
      'GET /api/webhooks/:id/deliveries': () =>
        page([delivery({ id: 8, event_id: 'evt_failing', status: 'failed' }), delivery()]),
      'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver': () =>
        json(delivery({ id: 8, event_id: 'evt_failing', status: 'succeeded', last_status_code: 200 })),
    });

    const row = await screen.findByRole('row', { name: /evt_failing/ });
    await user.click(within(row).getByRole('button', { name: 'Redeliver' }));

    expect((await screen.findByRole('status')).textContent).toContain(
      'Redelivered evt_failing: it succeeded (HTTP 200).',
    );
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/api/webhooks/1/deliveries/8/redeliver',
    ]);
  });

  it('pages through the log and filters it by status', async () => {
    const user = userEvent.setup();
    const { calls } = renderDetail({
      'GET /api/webhooks/:id/deliveries': (request) => {
        const offset = Number(new URL(request.url).searchParams.get('offset'));
        return page([delivery({ id: 100 + offset, event_id: `evt_at_${offset}` })], 45, offset);
      },
    });
    const reads = () => calls.filter((call) => call.path.startsWith('/api/webhooks/1/deliveries')).map((c) => c.path);

    expect(await screen.findByText('1–20 of 45')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('row', { name: /evt_at_20/ })).toBeTruthy();
    expect(screen.getByText('21–40 of 45')).toBeTruthy();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'failed');

    await waitFor(() => expect(reads()).toContain('/api/webhooks/1/deliveries?limit=20&offset=0&status=failed'));
    expect(reads()).toContain('/api/webhooks/1/deliveries?limit=20&offset=20');
  });

  it('edits URL, events, description and the active switch', async () => {
    const user = userEvent.setup();
    const { calls } = renderDetail({
      'PATCH /api/webhooks/:id': () => json(endpoint({ description: 'Search index', active: false })),
    });

    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = dialog('Edit webhook');
    expect(value(within(form).getByLabelText('URL'))).toBe('https://hooks.example.org/files');
    await user.clear(within(form).getByLabelText('Description'));
    await user.type(within(form).getByLabelText('Description'), 'Search index');
    await user.click(within(form).getByRole('checkbox', { name: 'Active' }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      url: 'https://hooks.example.org/files',
      events: ['*'],
      filter: null,
      description: 'Search index',
      active: false,
    });
    expect(screen.getByText('This endpoint is inactive')).toBeTruthy();
  });

  it('rotates the secret, in another scheme if chosen, and shows the new one once with the grace period', async () => {
    const user = userEvent.setup();
    const { calls } = renderDetail({
      'POST /api/webhooks/:id/rotate-secret': () =>
        json(
          endpoint({
            signature_scheme: 'standard',
            secret: 'whsec_bmV3',
            previous_secret_expires_at: '2099-01-01T00:00:00.000Z',
          }),
        ),
    });

    await user.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    const rotation = dialog('Rotate secret');
    await user.click(within(rotation).getByRole('radio', { name: 'Standard Webhooks' }));
    await user.click(within(rotation).getByRole('button', { name: 'Issue new secret' }));

    expect(value(await within(rotation).findByLabelText('New signing secret'))).toBe('whsec_bmV3');
    expect(within(rotation).getByRole('note').textContent).toContain(
      `keeps signing too until ${new Date('2099-01-01T00:00:00.000Z').toLocaleString()}`,
    );
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ signature_scheme: 'standard' });
    expect(screen.getByText(/Still signs too until/)).toBeTruthy();
    await user.click(within(rotation).getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue('whsec_bmV3')).toBeNull();
  });

  it('deletes the endpoint after confirmation and goes back to the list', async () => {
    const user = userEvent.setup();
    let deleted = false;
    const { calls } = renderDetail({
      'GET /api/webhooks': () => json(deleted ? [] : [endpoint()]),
      'DELETE /api/webhooks/:id': () => {
        deleted = true;
        return new Response(null, { status: 204 });
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = dialog('Delete webhook?');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Webhooks' })).toBeTruthy();
    expect(screen.getByText('The webhook to https://hooks.example.org/files was deleted.').getAttribute('role')).toBe(
      'status',
    );
    expect(await screen.findByText('No webhooks yet')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/webhooks/1');
  });

  it('explains a disabled endpoint and enables it again', async () => {
    const user = userEvent.setup();
    const disabled = endpoint({ active: false, disabled_reason: 'The endpoint answered 410 Gone.' });
    const { calls } = renderDetail({
      'GET /api/webhooks/:id': () => json(disabled),
      'PATCH /api/webhooks/:id': () => json(endpoint()),
    });

    expect((await screen.findByText(/The service disabled this endpoint/)).closest('p')?.textContent).toContain(
      'The service disabled this endpoint: The endpoint answered 410 Gone. Nothing is sent to it',
    );
    await user.click(screen.getByRole('button', { name: 'Enable' }));

    await waitFor(() => expect(screen.queryByText(/disabled this endpoint/)).toBeNull());
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ active: true });
  });

  it('recovers a disabled endpoint: enables it, then re-queues the window’s failed and skipped deliveries', async () => {
    const user = userEvent.setup();
    const order: string[] = [];
    const { calls } = renderDetail({
      'GET /api/webhooks/:id': () => json(endpoint({ active: false, disabled_reason: 'Failing for 5 days.' })),
      'PATCH /api/webhooks/:id': () => (order.push('enable'), json(endpoint())),
      'POST /api/webhooks/:id/recover': () => (
        order.push('recover'),
        json(
          {
            requeued: 10000,
            remaining: 3,
            next_since: '2026-11-21T08:00:00.000Z',
            since: '2026-11-20T08:00:00.000Z',
            until: '2026-11-22T08:00:00.000Z',
          },
          202,
        )
      ),
    });

    await user.click(await screen.findByRole('button', { name: 'Recover' }));
    const recovery = dialog('Recover deliveries');
    const since = within(recovery).getByLabelText('Since');
    await user.clear(since);
    await user.type(since, '2026-11-20T08:00');
    await user.click(within(recovery).getByRole('button', { name: 'Enable and recover' }));

    expect((await within(recovery).findByRole('status')).textContent).toContain(
      '10000 deliveries queued again. 3 more matched: once these have been sent, recover again from',
    );
    expect(order).toEqual(['enable', 'recover']);
    expect(calls.find((call) => call.path === '/api/webhooks/1/recover')?.body).toEqual({
      since: new Date('2026-11-20T08:00').toISOString(),
      status: ['failed', 'skipped'],
    });
    expect(value(within(recovery).getByLabelText('Since'))).toBe(toLocalInput(new Date('2026-11-21T08:00:00.000Z')));
  });

  it('shows a refused recovery as a readable message', async () => {
    const user = userEvent.setup();
    renderDetail({
      'POST /api/webhooks/:id/recover': () =>
        problem(409, 'A recovery of this endpoint is running', 'Webhook 1 is still recovering; try again later.', {
          type: '/problems/webhook-recovery-running',
        }),
    });

    await user.click(await screen.findByRole('button', { name: 'Recover' }));
    const recovery = dialog('Recover deliveries');
    await user.click(within(recovery).getByRole('button', { name: 'Recover deliveries' }));

    expect((await within(recovery).findByRole('alert')).textContent).toContain(
      'A recovery of this endpoint is running: Webhook 1 is still recovering; try again later.',
    );
  });

  it('says so when the endpoint does not exist', async () => {
    renderDetail({
      'GET /api/webhooks/:id': () => problem(404, 'Webhook endpoint not found', 'Webhook 1 does not exist.'),
    });

    expect((await screen.findByRole('alert')).textContent).toContain(
      'Webhook endpoint not found: Webhook 1 does not exist.',
    );
    expect(screen.queryByRole('button', { name: 'Send ping' })).toBeNull();
  });
});

/** What an input holds. */
const value = (element: HTMLElement) => (element as HTMLInputElement).value;

/** The text of the elements that describe an element (aria-describedby). */
const description = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
