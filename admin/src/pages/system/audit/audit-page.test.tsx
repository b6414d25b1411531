import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../api/client';
import { ShowLocation } from '../../../testing/location';
import { json, problem, renderPage } from '../../../testing/render';
import { AuditPage } from './audit-page';
import { toLocalInput } from './audit-query';

const event = (id: number, overrides: Partial<Schemas['AuditEvent']> = {}): Schemas['AuditEvent'] => ({
  id,
  occurred_at: `2026-01-02T03:04:${String(id % 60).padStart(2, '0')}.000Z`,
  actor: 'user:1',
  client_id: 'administration',
  action: 'role.update',
  target_type: 'role',
  target_id: '7',
  outcome: 'success',
  request_id: `req-${id}`,
  source_ip: '203.0.113.7',
  details: { fields: ['permissions'] },
  ...overrides,
});

/** The audit log at `path`, over a fake trail of `total` events that answers whatever page is asked for. */
function renderAudit(path = '/settings/system/audit', total = 60) {
  const all = Array.from({ length: total }, (_, index) => event(total - index));
  return renderPage(
    <>
      <AuditPage />
      <ShowLocation />
    </>,
    {
      path,
      routes: {
        'GET /api/audit-events': (request) => {
          const query = new URL(request.url).searchParams;
          const limit = Number(query.get('limit'));
          const offset = Number(query.get('offset'));
          return json({ items: all.slice(offset, offset + limit), total, limit, offset });
        },
      },
    },
  );
}

const auditCalls = (calls: Array<{ path: string }>) =>
  calls.filter((call) => call.path.startsWith('/api/audit-events')).map((call) => new URL(call.path, 'http://x'));
const location = () => screen.getByTestId('location').textContent;

describe('AuditPage', () => {
  it('lists the newest events with time, actor, action, target and an expander of details', async () => {
    const actor = userEvent.setup({ delay: null });
    renderAudit();
    await screen.findAllByText('role 7');
    // The header row, then the newest event first.
    const row = screen.getAllByRole('row')[1];
    expect(within(row).getByRole('time').getAttribute('datetime')).toBe(event(60).occurred_at);
    for (const header of ['Time', 'Actor', 'Action', 'Target', 'Details']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    }
    expect(within(row).getByText('user:1')).toBeTruthy();
    expect(within(row).getByText('role 7')).toBeTruthy();
    expect(within(row).getByText('Succeeded')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(26);
    const summary = within(row).getByText('Details');
    await actor.click(summary);
    const details = summary.closest('details')!;
    expect(details.open).toBe(true);
    expect(details.textContent).toContain('203.0.113.7');
    expect(details.textContent).toContain('"permissions"');
  });

  it('sends the filters in the address to the API, and applies new ones to both', async () => {
    const actor = userEvent.setup({ delay: null });
    const { calls } = renderAudit('/settings/system/audit?actor=user%3A1&since=2026-01-01T00%3A00%3A00.000Z');
    await screen.findAllByText('role 7');
    expect(auditCalls(calls)[0].searchParams.get('actor')).toBe('user:1');
    expect(auditCalls(calls)[0].searchParams.get('since')).toBe('2026-01-01T00:00:00.000Z');
    expect(screen.getByLabelText<HTMLInputElement>('Actor').value).toBe('user:1');
    expect(screen.getByLabelText<HTMLInputElement>('From').value).toBe(toLocalInput('2026-01-01T00:00:00.000Z'));

    await actor.clear(screen.getByLabelText('Actor'));
    await actor.type(screen.getByLabelText('Action'), 'role.update');
    await actor.type(screen.getByLabelText('Target type'), 'role');
    await actor.type(screen.getByLabelText('Target ID'), '7');
    fireEvent.change(screen.getByLabelText('Until'), { target: { value: '2026-02-01T10:30' } });
    await actor.click(screen.getByRole('button', { name: 'Apply filters' }));

    const until = new Date('2026-02-01T10:30').toISOString();
    await waitFor(() => expect(auditCalls(calls)).toHaveLength(2));
    const sent = auditCalls(calls)[1].searchParams;
    expect(Object.fromEntries(sent)).toEqual({
      action: 'role.update',
      target_type: 'role',
      target_id: '7',
      since: '2026-01-01T00:00:00.000Z',
      until,
      limit: '25',
      offset: '0',
    });
    const address = new URL(location(), 'http://x').searchParams;
    expect(Object.fromEntries(address)).toEqual({
      action: 'role.update',
      target_type: 'role',
      target_id: '7',
      since: '2026-01-01T00:00:00.000Z',
      until,
    });

    await actor.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(location()).toBe('/settings/system/audit'));
    expect(screen.getByLabelText<HTMLInputElement>('Action').value).toBe('');
  });

  it('pages on the server, keeping the page in the address', async () => {
    const actor = userEvent.setup({ delay: null });
    const { calls } = renderAudit('/settings/system/audit?action=role.update');
    await screen.findAllByText('role 7');
    expect(screen.getByText('1–25 of 60')).toBeTruthy();
    await actor.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('26–50 of 60')).toBeTruthy();
    expect(location()).toBe('/settings/system/audit?action=role.update&offset=25');
    expect(auditCalls(calls).at(-1)!.searchParams.get('offset')).toBe('25');
    expect(auditCalls(calls).at(-1)!.searchParams.get('action')).toBe('role.update');
    // A new filter starts again at the first page.
    await actor.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(location()).toBe('/settings/system/audit?action=role.update'));
  });

  it('says when nothing matches the filters', async () => {
    renderAudit('/settings/system/audit?actor=nobody', 0);
    expect(await screen.findByText('No event matches these filters')).toBeTruthy();
  });

  it('shows the problem when the API refuses the filters', async () => {
    renderPage(<AuditPage />, {
      routes: { 'GET /api/audit-events': () => problem(400, 'Invalid request', 'since must be RFC 3339') },
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid request: since must be RFC 3339');
  });
});
