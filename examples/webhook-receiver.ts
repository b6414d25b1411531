/**
 * An example webhook receiver, doing what docs/webhooks-receiving.md asks of one: it verifies the signature over the
 * raw body, rejects deliveries whose signed timestamp is stale (5 minutes) or differs from X-Webhook-Timestamp, and
 * processes each event id once, remembered in a SQLite file (a restart forgets nothing); it still answers 2xx to
 * repeats so the sender stops.
 *
 *   WEBHOOK_SECRETS=ffwh_new,ffwh_old npm run example:receiver
 *
 * HOST 127.0.0.1, PORT 4000 and PROCESSED_DB data/processed-webhooks.sqlite (git ignores data/) by default.
 */
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { verifyWebhookSignature } from '../src/webhooks/sending/verify-webhook-signature.js';

const secrets = (process.env.WEBHOOK_SECRETS ?? '').split(',').filter(Boolean);
if (secrets.length === 0) {
  console.error("Set WEBHOOK_SECRETS to the endpoint's signing secret (ffwh_..., comma-separated during a rotation).");
  process.exit(2);
}

/**
 * The ids already processed, with a unique key: an id is recorded in the transaction that processes its event, so a
 * crash between the two processes it again rather than never. Keep ids for longer than deliveries are retried and
 * redelivered (WEBHOOK_RETRY_SCHEDULE adds up to about three days; a manual redelivery can come any time).
 */
const dbPath = process.env.PROCESSED_DB ?? 'data/processed-webhooks.sqlite';
mkdirSync(dirname(dbPath), { recursive: true });
const db = new DatabaseSync(dbPath);
db.exec('CREATE TABLE IF NOT EXISTS processed_events (id TEXT PRIMARY KEY, processed_at INTEGER NOT NULL)');
const remember = db.prepare('INSERT OR IGNORE INTO processed_events (id, processed_at) VALUES (?, ?)');

interface Delivery {
  id: string;
  event: string;
  data: unknown;
}

/** Your work; whatever it writes should go to the same database, inside the transaction, to be exactly once. */
function handle(event: Delivery): void {
  console.log(`processing ${event.event} ${event.id}`, JSON.stringify(event.data));
}

/** Processes the event unless its id was processed before; false for a repeat. */
function processOnce(event: Delivery): boolean {
  db.exec('BEGIN IMMEDIATE');
  try {
    const fresh = remember.run(event.id, Date.now()).changes === 1;
    if (fresh) handle(event);
    db.exec('COMMIT');
    return fresh;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
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
    try {
      processOnce(JSON.parse(raw.toString('utf8')) as Delivery);
      res.writeHead(204).end();
    } catch (error) {
      // Not recorded as processed: the sender retries.
      console.error(error);
      res.writeHead(500).end();
    }
  });
});

// Loopback unless told otherwise: an example has no business on the network.
server.listen(Number(process.env.PORT ?? 4000), process.env.HOST ?? '127.0.0.1', () => {
  const { address, family, port } = server.address() as AddressInfo;
  console.log(`listening on http://${family === 'IPv6' ? `[${address}]` : address}:${port}`);
});
