import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me } from '../../../testing/system-fixtures';
import { json, problem } from '../../../testing/render';
import { description, dialog, endpoint, endpointPage, renderList, signingKey, value } from './webhook-test-kit';

afterEach(() => {
  vi.useRealTimers();
});

describe('WebhooksPage', () => {
  it('lists the endpoints with their events, state and description, each URL linking to its page', async () => {
    renderList({
      'GET /api/webhooks': () =>
        endpointPage([
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

  it('tells endpoints of one URL apart by scheme, and shows how each fares', async () => {
    const url = 'https://hooks.example.org/files';
    renderList({
      'GET /api/webhooks': () =>
        endpointPage([
          endpoint({
            description: null,
            last_delivery: { status: 'succeeded', at: '2026-11-22T12:00:00.000Z' },
          }),
          endpoint({
            id: 2,
            signature_scheme: 'standard',
            description: null,
            failing_since: '2026-11-22T09:00:00.000Z',
            last_delivery: { status: 'failed', at: '2026-11-22T11:00:00.000Z' },
          }),
        ]),
    });

    const [github, standard] = (await screen.findAllByRole('row', { name: new RegExp(url) })).map(
      (row) => row.textContent ?? '',
    );
    expect(github).toContain('GitHub style');
    expect(github).toContain('Active');
    expect(github).toContain(`Last delivery succeeded ${new Date('2026-11-22T12:00:00.000Z').toLocaleString()}`);
    expect(standard).toContain('Standard Webhooks');
    expect(standard).toContain('Failing');
    expect(standard).toContain(`Failing since ${new Date('2026-11-22T09:00:00.000Z').toLocaleString()}`);
    expect(standard).toContain('Last delivery failed');
    expect(github).not.toContain('Failing');
  });

  it('searches, sorts and pages on the server, as the address says', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderList(
      {
        'GET /api/webhooks': (request) => {
          const offset = Number(new URL(request.url).searchParams.get('offset'));
          return endpointPage([endpoint({ id: 100 + offset, url: `https://h${offset}.example.org/` })], 45, offset);
        },
      },
      '?sort=-description',
    );
    const reads = () => calls.filter((call) => call.path.startsWith('/api/webhooks?')).map((call) => call.path);

    expect(await screen.findByText('1–20 of 45')).toBeTruthy();
    expect(reads()).toEqual(['/api/webhooks?limit=20&offset=0&sort=-description']);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('row', { name: /h20\.example/ })).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Search URLs and descriptions' }), 'erp{Enter}');
    await waitFor(() => expect(reads()).toContain('/api/webhooks?limit=20&offset=0&q=erp&sort=-description'));
    expect(reads()).toContain('/api/webhooks?limit=20&offset=20&sort=-description');
    await user.click(screen.getByRole('button', { name: 'URL' }));
    await waitFor(() => expect(reads()).toContain('/api/webhooks?limit=20&offset=0&q=erp&sort=url'));
  });

  it('says what to do when there is no endpoint yet', async () => {
    renderList({ 'GET /api/webhooks': () => endpointPage([]) });

    expect(await screen.findByText('No webhooks yet')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add webhook' }).disabled).toBe(false);
  });

  it('registers an endpoint with the chosen events, scheme and filter, and shows its secret exactly once', async () => {
    const user = userEvent.setup({ delay: null });
    let registered = false;
    const { calls } = renderList({
      'GET /api/webhooks': () =>
        endpointPage(registered ? [endpoint(), endpoint({ id: 2, url: 'https://new.example/h' })] : [endpoint()]),
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
    await user.click(within(form).getByRole('radio', { name: 'In order, item by item' }));
    await user.click(within(form).getByRole('radio', { name: 'Notice only' }));
    await user.type(within(form).getByLabelText('Rate limit'), '25');
    await user.click(within(form).getByRole('checkbox', { name: 'Re-enable by itself after failing' }));
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
      ordering: 'per-entity',
      payload: 'thin',
      rate_limit: 25,
      auto_recover: true,
    });
    expect(await screen.findByRole('row', { name: /new\.example/ })).toBeTruthy();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByDisplayValue('whsec_c2VjcmV0')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(value(within(dialog('Add webhook')).getByLabelText('URL'))).toBe('');
  });

  it('shows why the service refused a URL at the URL field, focused, and no secret', async () => {
    const user = userEvent.setup({ delay: null });
    const cause = 'The port 99999 is out of range: a port is a number from 1 to 65535.';
    renderList({
      'POST /api/webhooks': () =>
        problem(400, 'Webhook URL refused', cause, {
          type: '/problems/unsafe-webhook-url',
          errors: [{ field: 'url', messages: [cause] }],
        }),
    });

    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = dialog('Add webhook');
    await user.type(within(form).getByLabelText('URL'), 'https://example.org:99999/hook');
    await user.click(within(form).getByRole('button', { name: 'Create' }));

    const url = within(form).getByLabelText('URL');
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(description(url)).toContain(cause);
    expect(document.activeElement).toBe(url);
    // Under the form only a pointer to the field, not the cause a second time.
    expect(within(form).getByRole('alert').textContent).toBe('Not saved: correct the fields marked above.');
    expect(within(form).queryByLabelText('Signing secret')).toBeNull();
  });

  it('shows a refusal about no field of the form under it', async () => {
    const user = userEvent.setup({ delay: null });
    renderList({
      'POST /api/webhooks': () => problem(403, 'Forbidden', 'The token lacks webhook:write.'),
    });

    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = dialog('Add webhook');
    await user.type(within(form).getByLabelText('URL'), 'https://example.org/hook');
    await user.click(within(form).getByRole('button', { name: 'Create' }));

    expect((await within(form).findByRole('alert')).textContent).toContain('The token lacks webhook:write.');
    expect(within(form).getByLabelText('URL').getAttribute('aria-invalid')).toBeNull();
  });

  it('asks for a URL and at least one event before sending anything', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderList();

    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = dialog('Add webhook');
    await user.click(within(form).getByRole('checkbox', { name: 'All events' }));
    await user.click(within(form).getByRole('button', { name: 'Create' }));

    expect(description(within(form).getByLabelText('URL'))).toContain('Enter the URL');
    expect(within(form).getByText('Choose at least one event, or all events.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
  it('says how each endpoint is sent to, and warns of one the service will disable if it keeps failing', async () => {
    const since = '2026-11-22T09:00:00.000Z';
    renderList({
      'GET /api/webhooks': () =>
        endpointPage([
          endpoint(),
          endpoint({
            id: 2,
            url: 'https://erp.example.com/in',
            signature_scheme: 'standard-v1a',
            ordering: 'per-entity',
            payload: 'thin',
            rate_limit: 1,
            auto_recover: true,
            failing_since: since,
            warned_at: '2026-11-23T09:00:00.000Z',
          }),
          endpoint({
            id: 3,
            url: 'https://off.example.com/in',
            rate_limit: 2500,
            auto_recover: true,
            active: false,
            disabled_reason: 'Every delivery failed for too long.',
            failing_since: since,
            warned_at: '2026-11-23T09:00:00.000Z',
            next_probe_at: '2026-11-28T10:00:00.000Z',
          }),
        ]),
    });

    const plain = (await screen.findByRole('row', { name: /hooks\.example\.org/ })).textContent ?? '';
    for (const words of [
      'GitHub style',
      'As soon as possible',
      'Full details',
      'No rate limit',
      'If disabled, enabled again by hand',
    ])
      expect(plain).toContain(words);
    expect(plain).not.toContain('will disable');
    const warned = screen.getByRole('row', { name: /erp\.example\.com/ });
    for (const words of [
      'Standard Webhooks, public key',
      'In order, item by item',
      'Notice only',
      'At most 1 delivery a second',
      'If disabled, re-enables itself',
    ])
      expect(warned.textContent).toContain(words);
    expect(within(warned).getByText(/will disable/).textContent).toBe(
      `⚠ Failing since ${new Date(since).toLocaleString()}: the service will disable it if it keeps failing.`,
    );
    // Disabled already: no warning of what has happened, but when it is tried again.
    const off = screen.getByRole('row', { name: /off\.example\.com/ }).textContent ?? '';
    expect(off).toContain('At most 2,500 deliveries a second');
    expect(off).not.toContain('will disable');
    expect(off).toContain(`Next test ${new Date('2026-11-28T10:00:00.000Z').toLocaleString()}`);
  });

  it.each([
    ['0', 'a limit below one'],
    ['10001', 'a limit above the most'],
    ['2.5', 'a fraction'],
    ['ten', 'words'],
  ])('refuses a rate limit of %s (%s) at its field, focused, and sends nothing', async (typed) => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderList();

    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = dialog('Add webhook');
    await user.type(within(form).getByLabelText('URL'), 'https://example.org/hook');
    const limit = within(form).getByLabelText('Rate limit');
    await user.type(limit, typed);
    await user.click(within(form).getByRole('button', { name: 'Create' }));

    expect(limit.getAttribute('aria-invalid')).toBe('true');
    expect(description(limit)).toContain(
      'Enter a whole number of deliveries a second, from 1 to 10,000, or leave it empty for no limit.',
    );
    expect(document.activeElement).toBe(limit);
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('shows the service’s refusal of a rate limit at its field', async () => {
    const user = userEvent.setup({ delay: null });
    const refusal = 'rate_limit must not be greater than 10000';
    renderList({
      'POST /api/webhooks': () =>
        problem(400, 'Bad Request', refusal, { errors: [{ field: 'rate_limit', messages: [refusal] }] }),
    });

    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = dialog('Add webhook');
    await user.type(within(form).getByLabelText('URL'), 'https://example.org/hook');
    await user.type(within(form).getByLabelText('Rate limit'), '500');
    await user.click(within(form).getByRole('button', { name: 'Create' }));

    const limit = within(form).getByLabelText('Rate limit');
    await waitFor(() => expect(limit.getAttribute('aria-invalid')).toBe('true'));
    expect(description(limit)).toContain(refusal);
    expect(within(form).getByRole('alert').textContent).toBe('Not saved: correct the fields marked above.');
  });

  it('registers an endpoint signed with the public key: no secret, but where its receiver finds the keys', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderList({
      'POST /api/webhooks': () => json(endpoint({ id: 2, signature_scheme: 'standard-v1a' }), 201),
    });

    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const form = dialog('Add webhook');
    await user.type(within(form).getByLabelText('URL'), 'https://hooks.example.org/files');
    await user.click(within(form).getByRole('radio', { name: 'Standard Webhooks, public key' }));
    await user.click(within(form).getByRole('button', { name: 'Create' }));

    const shown = await screen.findByRole('dialog', { name: 'Webhook added' });
    expect(shown.textContent).toContain('there is no secret to hand over');
    expect(value(within(shown).getByLabelText('Public keys'))).toBe(`${location.origin}/.well-known/webhook-keys.json`);
    expect(within(shown).queryByLabelText('Signing secret')).toBeNull();
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ signature_scheme: 'standard-v1a' });
  });

  it('lists the public signing keys, and lets an administrator rotate them', async () => {
    const user = userEvent.setup({ delay: null });
    let rotated = false;
    const upcoming = signingKey({
      kid: 'wh-new',
      state: 'upcoming',
      activates_at: '2026-12-01T11:00:00.000Z',
    });
    const { calls } = renderList({
      'GET /api/me': () => json(me(['*'])),
      'GET /api/webhooks/signing-keys': () => json(rotated ? [signingKey(), upcoming] : [signingKey()]),
      'POST /api/webhooks/signing-keys/rotate': () => {
        rotated = true;
        return json(upcoming, 201);
      },
    });

    const keys = await screen.findByRole('region', { name: 'Public signing keys' });
    const signing = await within(keys).findByRole('row', { name: /wh-first/ });
    expect(signing.textContent).toContain('Signing now');
    expect(signing.textContent).toContain(`Since ${new Date('2026-11-01T10:00:00.000Z').toLocaleString()}`);
    expect(signing.textContent).toContain('No end date yet');
    expect(
      within(keys)
        .getByRole('link', { name: /webhook-keys\.json$/ })
        .getAttribute('href'),
    ).toBe(`${location.origin}/.well-known/webhook-keys.json`);
    await user.click(within(keys).getByRole('button', { name: 'Rotate signing key' }));
    const confirm = dialog('Rotate the signing key?');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Rotate signing key' }));

    expect((await within(keys).findByRole('status')).textContent).toContain(
      `New key wh-new published: it signs from ${new Date('2026-12-01T11:00:00.000Z').toLocaleString()}`,
    );
    const added = await within(keys).findByRole('row', { name: /wh-new/ });
    expect(added.textContent).toContain('Upcoming');
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/api/webhooks/signing-keys/rotate',
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the keys without a rotation to an account that may only manage webhooks', async () => {
    renderList({
      'GET /api/me': () => json(me(['webhook:write'])),
      'GET /api/webhooks/signing-keys': () => json([signingKey()]),
    });

    const keys = await screen.findByRole('region', { name: 'Public signing keys' });
    expect(await within(keys).findByRole('row', { name: /wh-first/ })).toBeTruthy();
    expect(within(keys).getByText(/Only an administrator/)).toBeTruthy();
    expect(within(keys).queryByRole('button', { name: /Rotate/ })).toBeNull();
  });
});
