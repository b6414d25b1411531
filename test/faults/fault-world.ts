import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import pg from 'pg';
import { createDatabaseEnvironment, type DatabaseEnvironment } from '../support/database-environment.js';
import { s3ClientOf } from '../support/direct-uploads.js';
import { startFauxqsServer } from '../support/fauxqs-server.js';
import { freePort } from '../support/free-port.js';
import { OwnRedis } from '../support/own-redis.js';
import { bucketKeys } from '../support/resumable-s3.js';
import type { S3TestServer } from '../support/s3-server.js';
import {
  buildService,
  startServiceProcess,
  type ServiceBuild,
  type ServiceProcess,
} from '../support/service-process.js';
import { ADMIN_PASSWORD, passwordToken } from '../support/test-app.js';
import { eventually } from '../support/wait.js';
import { HttpFaultProxy, TcpFaultProxy, type Hold } from './fault-proxy.js';

export const MiB = 1024 * 1024;
const POSTGRES_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
/** One issuer for every instance, as behind a load balancer: a token from one is valid on the other. */
const ISSUER = 'https://faults.test';
/** Fields whose images get variants, and which. */
const VARIANTS: Record<string, string[]> = { 'product/cover': ['thumb', 'large'], 'product/gallery': ['thumb'] };
/** FAULTS_LOG=<file>: the instances log their warnings and errors, appended to the file when each one ends. */
const FAULTS_LOG = process.env.FAULTS_LOG;

function keepLog(instance: ServiceProcess): void {
  if (FAULTS_LOG) appendFileSync(FAULTS_LOG, instance.output());
}

/** A webhook receiver that tells what it acknowledged (answered 2xx on a live connection) from what merely arrived. */
export interface FaultReceiver {
  url: string;
  /** Event ids of every request that arrived. */
  arrived: string[];
  /** The sender's port of each request that arrived, in order. */
  senderPorts: number[];
  /** Event ids whose 200 reached the sender. */
  acknowledged: string[];
  /** When each of `acknowledged` was answered (epoch ms). */
  acknowledgedAt: number[];
  /** Holds the answer to the next request until released (or until its sender goes). */
  holdNext(): Hold;
  close(): Promise<void>;
}

async function startFaultReceiver(): Promise<FaultReceiver> {
  const arrived: string[] = [];
  const senderPorts: number[] = [];
  const acknowledged: string[] = [];
  const acknowledgedAt: number[] = [];
  const holds: Array<{ arrive(): void; released: Promise<void> }> = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      arrived.push(id);
      senderPorts.push(req.socket.remotePort ?? 0);
      const hold = holds.shift();
      hold?.arrive();
      void (hold?.released ?? Promise.resolve()).then(() => {
        if (res.destroyed || req.socket.destroyed) return;
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok', () => {
          acknowledged.push(id);
          acknowledgedAt.push(Date.now());
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrived,
    senderPorts,
    acknowledged,
    acknowledgedAt,
    holdNext() {
      let arrive!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => (arrive = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.push({ arrive, released });
      return { reached, release };
    },
    async close() {
      open.forEach((res) => res.destroy());
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What one invariant pass found (for the test's message and the report). */
export interface InvariantReport {
  records: number;
  objects: number;
  swept: string[];
  deliveries: number;
  /** Multipart uploads left open by an instance killed mid-upload (a bucket lifecycle rule ends them). */
  openMultipartUploads: string[];
}

/**
 * Everything a fault scenario runs on: two service instances (processes of their own) on one PostgreSQL schema, one
 * Redis server and one S3-protocol bucket, each dependency behind something the test controls (a fault proxy for
 * PostgreSQL and S3, SIGSTOP for the suite's own Redis), a webhook receiver subscribed to every event, and the built
 * service to start instances and run the orphan sweep with.
 */
export class FaultWorld {
  build!: ServiceBuild;
  database!: DatabaseEnvironment;
  postgres!: TcpFaultProxy;
  storage!: HttpFaultProxy;
  redis!: OwnRedis;
  receiver!: FaultReceiver;
  token = '';
  /** The running instances by name (a and b; a killed one is replaced by a restarted one). */
  readonly instances = new Map<string, ServiceProcess>();
  private s3!: S3TestServer;
  private client!: S3Client;
  private db!: pg.Client;
  private redisPrefix = `faults-${randomBytes(4).toString('hex')}`;
  private readonly restarts: Array<Promise<ServiceProcess>> = [];
  /** Multipart uploads of instances killed mid-upload: S3 keeps them until the bucket's lifecycle rule ends them. */
  private readonly abandonedMultipart = new Set<string>();

  async start(): Promise<void> {
    const target = new URL(POSTGRES_URL);
    [this.build, this.database, this.s3, this.receiver] = await Promise.all([
      buildService('faults'),
      createDatabaseEnvironment('faults', POSTGRES_URL),
      startFauxqsServer('faults'),
      startFaultReceiver(),
    ]);
    this.postgres = await new TcpFaultProxy(target.hostname, Number(target.port || 5432)).start();
    this.storage = await new HttpFaultProxy(new URL(this.s3.env.S3_ENDPOINT)).start();
    this.redis = new OwnRedis(await freePort());
    await this.redis.start();
    this.client = s3ClientOf(this.s3);
    this.db = new pg.Client({
      connectionString: POSTGRES_URL,
      options: `-c search_path=${this.database.env.DATABASE_SCHEMA}`,
    });
    await this.db.connect();
    // One after the other: the first runs the migrations and stores the signing key the second loads.
    await this.startInstance('a');
    await this.startInstance('b');
    this.token = (await passwordToken(this.url('a'), 'admin', ADMIN_PASSWORD)).access_token;
    const endpoint = await this.request('a', 'POST', '/api/webhooks', { url: this.receiver.url, events: ['*'] });
    if (endpoint.status !== 201) throw new Error(`Registering the webhook endpoint answered ${endpoint.status}`);
  }

  async stop(): Promise<void> {
    for (const instance of this.instances.values()) keepLog(instance);
    await Promise.allSettled([...this.instances.values()].map((instance) => instance.stop('SIGKILL')));
    await this.db?.end().catch(() => undefined);
    this.client?.destroy();
    await Promise.allSettled([this.postgres?.close(), this.storage?.close(), this.receiver?.close()]);
    await this.redis?.stop();
    await this.s3?.stop();
    await this.database?.drop();
    await this.build?.remove();
  }

  /** The database's URL through the fault proxy. */
  proxiedDatabaseUrl(): string {
    const proxied = new URL(POSTGRES_URL);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.postgres.port);
    return proxied.href;
  }

  /** The environment of an instance: every dependency through what the test controls. */
  private instanceEnv(): Record<string, string> {
    return {
      ...this.s3.env,
      S3_ENDPOINT: this.storage.url,
      DATABASE_URL: this.proxiedDatabaseUrl(),
      REDIS_URL: this.redis.url,
      REDIS_KEY_PREFIX: this.redisPrefix,
      OAUTH_ISSUER: ISSUER,
      MAX_FILE_SIZE: String(64 * MiB),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // A delivery held by an instance that died is due again once its lease ends: short here, so the test waits little.
      WEBHOOK_TIMEOUT: '3s',
      WEBHOOK_LEASE: '8s',
      WEBHOOK_POLL_INTERVAL: '250ms',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,2s,2s,5s,5s,10s',
      ...(FAULTS_LOG ? { LOG_LEVEL: 'warn' } : {}),
    };
  }

  async startInstance(name: string): Promise<ServiceProcess> {
    const instance = await startServiceProcess(this.build, this.database, this.instanceEnv());
    this.instances.set(name, instance);
    return instance;
  }

  /**
   * SIGKILL: the instance ends wherever it is, as on a crash or an OOM kill. It is started again at once, as a
   * supervisor would, under the same name once it answers; checkInvariants waits for it.
   */
  async kill(name: string): Promise<void> {
    const instance = this.instances.get(name);
    if (instance) keepLog(instance);
    await instance?.stop('SIGKILL');
    this.instances.delete(name);
    const restart = this.startInstance(name);
    // Awaited by restarted(); a failure meanwhile is not left unhandled.
    restart.catch(() => undefined);
    this.restarts.push(restart);
  }

  /** Waits for the instances killed so far to answer again. */
  async restarted(): Promise<void> {
    await Promise.all(this.restarts.splice(0));
  }

  url(name: string): string {
    const instance = this.instances.get(name);
    if (!instance) throw new Error(`No instance ${name} is running`);
    return instance.url;
  }

  /** A JSON request as the administrator; answers status, headers and parsed body (problem documents included). */
  async request(
    name: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
    const res = await fetch(`${this.url(name)}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
  }

  /** A multipart upload of `bytes` to a field; answers status and parsed body. */
  async upload(
    name: string,
    path: string,
    bytes: Buffer,
    fileName: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
    const form = new FormData();
    form.append('file', new Blob([bytes]), fileName);
    const res = await fetch(`${this.url(name)}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${this.token}`, ...headers },
      body: form,
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
  }

  async newEntity(type: 'products' | 'articles'): Promise<number> {
    const res = await this.request(
      'a',
      'POST',
      `/${type}`,
      type === 'products' ? { name: 'fault' } : { title: 'fault' },
    );
    if (res.status !== 201) throw new Error(`Creating a ${type} entity answered ${res.status}`);
    return res.body.id as number;
  }

  /** A query on the suite's schema, straight to PostgreSQL (never through the proxy). */
  async query<T>(sql: string, values: unknown[] = []): Promise<T[]> {
    return (await this.db.query(sql, values)).rows as T[];
  }

  async objectExists(key: string): Promise<boolean> {
    return this.client.send(new HeadObjectCommand({ Bucket: this.s3.env.S3_BUCKET, Key: key })).then(
      () => true,
      (error: Error) => {
        if (error.name === 'NotFound' || error.name === 'NoSuchKey') return false;
        throw error;
      },
    );
  }

  objects(prefix = ''): Promise<string[]> {
    return bucketKeys(this.client, this.s3.env.S3_BUCKET, prefix);
  }

  /** `npm run sweep-orphans -- --grace-seconds 0`, straight to PostgreSQL and the bucket. */
  async sweep(): Promise<{ orphans: string[]; removed: number; failed: number; strayUploadParts: string[] }> {
    const { stdout } = await this.build.run('src/sweep-orphans.js', ['--grace-seconds', '0'], {
      ...this.database.env,
      ...this.s3.env,
      LOG_LEVEL: 'silent',
    });
    return JSON.parse(stdout) as { orphans: string[]; removed: number; failed: number; strayUploadParts: string[] };
  }

  /**
   * The invariants every scenario ends with, once the instances are quiet (variants made, deliveries done):
   * - no file record without its bytes (the original's and every stored variant's object exists);
   * - no bytes without a record after one sweep (every object left is a record's, or a live resumable upload's);
   * - every webhook event acknowledged exactly once by the receiver, and every delivery succeeded;
   * - no multipart upload left open but those of `killedMidUpload` (ended by the bucket's lifecycle rule).
   */
  async checkInvariants(killedMidUpload: string[] = []): Promise<InvariantReport> {
    for (const key of killedMidUpload) this.abandonedMultipart.add(key);
    await this.restarted();
    await this.variantsSettled();
    await this.deliveriesSettled();
    const swept = await this.sweep();
    if (swept.failed > 0) throw new Error(`The sweep failed to remove ${swept.failed} object(s)`);
    const records = await this.query<{ storage_key: string; variants: string | null; attachment_type: string }>(
      'SELECT path AS storage_key, variants, attachment_type FROM file_records',
    );
    const referenced = new Set<string>();
    for (const record of records) {
      referenced.add(record.storage_key);
      const variants = JSON.parse(record.variants ?? '{}') as Record<string, { key: string; failed?: true }>;
      for (const variant of Object.values(variants)) if (!variant.failed) referenced.add(variant.key);
    }
    const missing: string[] = [];
    for (const key of referenced) if (!(await this.objectExists(key))) missing.push(key);
    const uploads = await this.query<{ storage_key: string }>('SELECT storage_key FROM resumable_uploads');
    const live = uploads.map((upload) => `.resumable/${upload.storage_key}/`);
    const objects = (await this.objects()).filter((key) => !key.startsWith('.health'));
    const unreferenced = objects.filter(
      (key) => !referenced.has(key) && !live.some((prefix) => key.startsWith(prefix)),
    );
    const events = await this.query<{ id: string }>('SELECT DISTINCT event_id AS id FROM webhook_deliveries');
    const acknowledged = countBy(this.receiver.acknowledged);
    const notDelivered = events.filter((event) => !acknowledged.has(event.id)).map((event) => event.id);
    // Delivery is at least once: an instance that sent an event while the database was cut off cannot record that it
    // was delivered, and sends it again later (receivers deduplicate by event id). Only then may an event come twice.
    const firstAck = new Map<string, number>();
    this.receiver.acknowledged.forEach((id, i) =>
      firstAck.set(id, firstAck.get(id) ?? this.receiver.acknowledgedAt[i]),
    );
    // (Or just before it went, the result being stored when it did.)
    const unrecordable = (id: string) => this.postgres.wasCutOffAt(firstAck.get(id) ?? 0, 2_000);
    const twice = [...acknowledged].filter(([id, times]) => times > 1 && !unrecordable(id)).map(([id]) => id);
    const liveMultipart = new Set(uploads.map((upload) => upload.storage_key));
    const open = [...this.storage.openMultipartUploads.values()].map((path) => path.split('/').slice(2).join('/'));
    const strayMultipart = open.filter((key) => !liveMultipart.has(key) && !this.abandonedMultipart.has(key));
    expectEmpty('records whose bytes are missing', missing);
    expectEmpty('objects no record or live upload refers to after the sweep', unreferenced);
    expectEmpty('webhook events never acknowledged', notDelivered);
    expectEmpty('webhook events acknowledged more than once', twice);
    expectEmpty('multipart uploads left open', strayMultipart);
    return {
      records: records.length,
      objects: objects.length,
      swept: swept.orphans,
      deliveries: this.receiver.acknowledged.length,
      openMultipartUploads: open.filter((key) => killedMidUpload.includes(key)),
    };
  }

  /** Waits until every image record has its variants (made, or failed for good). */
  private async variantsSettled(): Promise<void> {
    await eventually(
      'the image variants to be made',
      async () => {
        const rows = await this.query<{ attachment_type: string; field: string; variants: string | null }>(
          "SELECT attachment_type, field, variants FROM file_records WHERE mime_type LIKE 'image/%'",
        );
        const pending = rows.filter((row) => {
          const names = VARIANTS[`${row.attachment_type}/${row.field}`] ?? [];
          const made = Object.keys(JSON.parse(row.variants ?? '{}') as object);
          return names.some((name) => !made.includes(name));
        });
        return pending.length === 0 ? true : undefined;
      },
      60_000,
      100,
    );
  }

  /** Waits until no delivery is pending; every one must have succeeded. */
  private async deliveriesSettled(): Promise<void> {
    await eventually(
      'the webhook deliveries to finish',
      async () => {
        const [row] = await this.query<{ pending: string }>(
          "SELECT count(*) AS pending FROM webhook_deliveries WHERE status = 'pending'",
        );
        return row.pending === '0' ? true : undefined;
      },
      60_000,
      100,
    );
    const failed = await this.query<{ id: number; status: string; last_error: string | null }>(
      "SELECT id, status, last_error FROM webhook_deliveries WHERE status <> 'succeeded'",
    );
    expectEmpty(
      'deliveries that did not succeed',
      failed.map((row) => JSON.stringify(row)),
    );
  }
}

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

function expectEmpty(what: string, found: string[]): void {
  if (found.length > 0) throw new Error(`Invariant broken: ${what}: ${found.join(', ')}`);
}
