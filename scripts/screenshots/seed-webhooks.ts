import { createServer } from 'node:http';
import { eventually } from '../../test/support/wait.js';
import type { Api } from './api.js';

/** A receiver on 127.0.0.1: /hooks/shop answers 204, /hooks/erp 503 (it is "down"), so the list shows both healths. */
export interface Receiver {
  url: string;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/hooks/erp') res.writeHead(503, { 'Content-Type': 'text/plain' }).end('ERP maintenance window');
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface Webhooks {
  /** The endpoint whose receiver fails: its delivery log is the one shown. */
  failingId: number;
}

/** Two endpoints, created before the catalog so that its uploads become deliveries; one pinged. */
export async function seedWebhooks(admin: Api, receiver: Receiver): Promise<Webhooks> {
  const shop = await admin.call<{ id: number }>('POST', '/api/webhooks', {
    url: `${receiver.url}/hooks/shop`,
    events: ['*'],
    description: 'Shop front cache',
  });
  const erp = await admin.call<{ id: number }>('POST', '/api/webhooks', {
    url: `${receiver.url}/hooks/erp`,
    events: ['file.created', 'file.deleted'],
    signature_scheme: 'standard',
    description: 'ERP image import',
    filter: { attachment_types: ['product'] },
  });
  await admin.call('POST', `/api/webhooks/${shop.id}/ping`);
  return { failingId: erp.id };
}

/** Waits until no delivery is pending any more (the retry schedule is short, see run.ts). */
export async function settleDeliveries(admin: Api): Promise<void> {
  const page = await admin.call<{ items: Array<{ id: number }> }>('GET', '/api/webhooks');
  for (const { id } of page.items) {
    await eventually(
      `the deliveries of webhook ${id} to end`,
      async () => {
        const pending = await admin.call<{ total: number }>(
          'GET',
          `/api/webhooks/${id}/deliveries?status=pending&limit=1`,
        );
        return pending.total === 0 || undefined;
      },
      60_000,
      250,
    );
  }
}
