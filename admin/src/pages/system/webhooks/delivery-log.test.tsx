import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, problem } from '../../../testing/render';
import { toLocalInput } from './recover-dialog';
import { delivery, dialog, endpoint, page, renderDetail, value } from './webhook-test-kit';

afterEach(() => {
  vi.useRealTimers();
});

describe('WebhookPage: the delivery log, pings, redelivery and recovery', () => {
  it('shows the endpoint and its delivery log, each delivery expandable into its attempts', async () => {
    const user = userEvent.setup({ delay: null });
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
    const user = userEvent.setup({ delay: null });
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
    const user = userEvent.setup({ delay: null });
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

  it('finds deliveries by event kind, and the one delivery of an event id a receiver reports', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderDetail({
      'GET /api/webhooks/:id/deliveries': (request) => {
        const eventId = new URL(request.url).searchParams.get('event_id');
        return page(eventId === 'evt_missing' ? [] : [delivery()]);
      },
    });
    const reads = () => calls.filter((call) => call.path.startsWith('/api/webhooks/1/deliveries')).map((c) => c.path);

    await screen.findByRole('row', { name: /evt_one/ });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Event' }), 'file.deleted');
    await waitFor(() => expect(reads()).toContain('/api/webhooks/1/deliveries?limit=20&offset=0&event=file.deleted'));
    await user.type(screen.getByRole('searchbox', { name: 'Event id' }), ' evt_missing {Enter}');

    expect(await screen.findByText('No delivery matches')).toBeTruthy();
    expect(reads()).toContain('/api/webhooks/1/deliveries?limit=20&offset=0&event=file.deleted&event_id=evt_missing');
    await user.clear(screen.getByRole('searchbox', { name: 'Event id' }));
    await waitFor(() => expect(reads().at(-1)).toBe('/api/webhooks/1/deliveries?limit=20&offset=0&event=file.deleted'));
  });

  it('recovers a disabled endpoint: enables it, then re-queues the window’s failed and skipped deliveries', async () => {
    const user = userEvent.setup({ delay: null });
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
    const user = userEvent.setup({ delay: null });
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
});
