import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, problem } from '../../../testing/render';
import { dialog, endpoint, endpointPage, renderDetail, value } from './webhook-test-kit';

afterEach(() => {
  vi.useRealTimers();
});

describe('WebhookPage', () => {
  it('edits URL, events, description and the active switch', async () => {
    const user = userEvent.setup({ delay: null });
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
    const user = userEvent.setup({ delay: null });
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
    const user = userEvent.setup({ delay: null });
    let deleted = false;
    const { calls } = renderDetail({
      'GET /api/webhooks': () => endpointPage(deleted ? [] : [endpoint()]),
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
    const user = userEvent.setup({ delay: null });
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

  it('shows how the endpoint fares: failing since when, and its last delivery', async () => {
    renderDetail({
      'GET /api/webhooks/:id': () =>
        json(
          endpoint({
            failing_since: '2026-11-22T09:00:00.000Z',
            last_delivery: { status: 'failed', at: '2026-11-22T11:00:00.000Z' },
          }),
        ),
    });

    const settings = await screen.findByRole('region', { name: 'Settings' });
    expect(settings.textContent).toContain(`Failing since${new Date('2026-11-22T09:00:00.000Z').toLocaleString()}`);
    expect(settings.textContent).toContain(
      `Last delivery failed ${new Date('2026-11-22T11:00:00.000Z').toLocaleString()}`,
    );
    expect(settings.textContent).toContain('Signature schemeGitHub style');
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
