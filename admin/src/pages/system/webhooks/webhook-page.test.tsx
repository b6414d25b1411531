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
      ordering: 'none',
      payload: 'full',
      rate_limit: null,
      auto_recover: false,
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
  it('says how the endpoint is sent to, in words, and warns while the service is about to disable it', async () => {
    renderDetail({
      'GET /api/webhooks/:id': () =>
        json(
          endpoint({
            signature_scheme: 'standard-v1-v1a',
            ordering: 'per-entity',
            payload: 'thin',
            rate_limit: 40,
            auto_recover: true,
            failing_since: '2026-11-22T09:00:00.000Z',
            warned_at: '2026-11-23T09:00:00.000Z',
          }),
        ),
    });

    const settings = await screen.findByRole('region', { name: 'Settings' });
    const text = settings.textContent ?? '';
    expect(text).toContain('Signature schemeStandard Webhooks, secret and public key');
    expect(text).toContain('Order of eventsIn order, item by item');
    expect(text).toContain('Content of eventsNotice only');
    expect(text).toContain('Rate limitAt most 40 deliveries a second');
    expect(text).toContain('RecoveryIf disabled, re-enables itself');
    expect(text).toContain(`Reported failing${new Date('2026-11-23T09:00:00.000Z').toLocaleString()}`);
    expect(screen.getByRole('note').textContent).toContain(
      `This endpoint is failing. Failing since ${new Date('2026-11-22T09:00:00.000Z').toLocaleString()}: the ` +
        'service will disable it if it keeps failing.',
    );
  });

  it('says when a disabled endpoint that re-enables itself is tried next', async () => {
    renderDetail({
      'GET /api/webhooks/:id': () =>
        json(
          endpoint({
            active: false,
            auto_recover: true,
            disabled_reason: 'Every delivery failed for too long.',
            next_probe_at: '2026-11-28T10:00:00.000Z',
          }),
        ),
    });

    expect((await screen.findByText(/^Next test .* once it answers\.$/)).textContent).toBe(
      `Next test ${new Date('2026-11-28T10:00:00.000Z').toLocaleString()}: enabled again by itself once it answers.`,
    );
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('changes the order, content, rate limit and recovery of an endpoint', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderDetail({
      'GET /api/webhooks/:id': () => json(endpoint({ ordering: 'per-entity', rate_limit: 5, auto_recover: true })),
      'PATCH /api/webhooks/:id': () => json(endpoint({ payload: 'thin' })),
    });

    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = dialog('Edit webhook');
    expect(within(form).getByRole<HTMLInputElement>('radio', { name: 'In order, item by item' }).checked).toBe(true);
    expect(value(within(form).getByLabelText('Rate limit'))).toBe('5');
    expect(form.textContent).toContain('Signature schemeGitHub style');
    expect(within(form).queryByRole('radio', { name: 'GitHub style' })).toBeNull();
    await user.click(within(form).getByRole('radio', { name: 'As soon as possible' }));
    await user.click(within(form).getByRole('radio', { name: 'Notice only' }));
    await user.clear(within(form).getByLabelText('Rate limit'));
    await user.click(within(form).getByRole('checkbox', { name: 'Re-enable by itself after failing' }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PATCH')?.body).toMatchObject({
      ordering: 'none',
      payload: 'thin',
      rate_limit: null,
      auto_recover: false,
    });
    expect((await screen.findByRole('region', { name: 'Settings' })).textContent).toContain(
      'Content of eventsNotice only',
    );
  });

  it('switches an endpoint to the public key: no new secret, but where the keys are', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderDetail({
      'POST /api/webhooks/:id/rotate-secret': () =>
        json(endpoint({ signature_scheme: 'standard-v1a', previous_secret_expires_at: '2099-01-01T00:00:00.000Z' })),
    });

    await user.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    const rotation = dialog('Rotate secret');
    await user.click(within(rotation).getByRole('radio', { name: 'Standard Webhooks, public key' }));
    await user.click(within(rotation).getByRole('button', { name: 'Sign with the public key' }));

    expect(value(await within(rotation).findByLabelText('Public keys'))).toBe(
      `${location.origin}/.well-known/webhook-keys.json`,
    );
    expect(rotation.textContent).toContain(
      `The previous secret keeps signing too until ${new Date('2099-01-01T00:00:00.000Z').toLocaleString()}`,
    );
    expect(within(rotation).queryByLabelText('New signing secret')).toBeNull();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ signature_scheme: 'standard-v1a' });
  });
});
