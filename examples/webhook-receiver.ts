/**
 * An example webhook receiver, doing what the README asks of one: it verifies the signature over the raw body, rejects
 * stale timestamps (5 minutes), processes each event id once, and still answers 2xx to repeats so the sender stops.
 *
 *   WEBHOOK_SECRETS=ffwh_new,ffwh_old npm run example:receiver      (HOST 127.0.0.1 and PORT 4000 by default)
 */
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { verifyWebhookSignature } from '../src/webhooks/verify-webhook-signature.js';

const secrets = (process.env.WEBHOOK_SECRETS ?? '').split(',').filter(Boolean);
if (secrets.length === 0) {
  console.error("Set WEBHOOK_SECRETS to the endpoint's signing secret (whsec_..., comma-separated during a rotation).");
  process.exit(2);
}
/** Use a database table with a unique key on the event id in real life; a Set forgets on restart. */
const processed = new Set<string>();

function handle(event: { id: string; event: string; data: unknown }): void {
  console.log(`processing ${event.event} ${event.id}`, JSON.stringify(event.data));
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const check = verifyWebhookSignature(raw, req.headers, secrets, { toleranceSeconds: 300 });
    if (!check.valid) {
      res.writeHead(400).end(check.reason);
      return;
    }
    const event = JSON.parse(raw.toString('utf8')) as { id: string; event: string; data: unknown };
    if (!processed.has(event.id)) {
      handle(event);
      processed.add(event.id);
    }
    res.writeHead(204).end();
  });
});

// Loopback unless told otherwise: an example has no business on the network.
server.listen(Number(process.env.PORT ?? 4000), process.env.HOST ?? '127.0.0.1', () => {
  const { address, family, port } = server.address() as AddressInfo;
  console.log(`listening on http://${family === 'IPv6' ? `[${address}]` : address}:${port}`);
});
