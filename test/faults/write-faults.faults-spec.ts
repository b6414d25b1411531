import { jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { join } from 'node:path';
import { PNG } from '../support/fixtures.js';
import { eventually } from '../support/wait.js';
import { connectionOwner } from './connection-owner.js';
import { s3 } from './fault-proxy.js';
import { FaultWorld, MiB } from './fault-world.js';

/*
 * Faults at every step of a write, on two instances of the service (processes of their own) sharing PostgreSQL,
 * Redis and an S3 bucket: an instance SIGKILLed while a step is held open by a fault proxy, and each dependency gone
 * for a while under load. Every scenario ends with the same invariants (FaultWorld.checkInvariants): no record
 * without its bytes, no bytes without a record once the sweep has run, every webhook event acknowledged exactly once.
 */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const pdfOf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);
const TUS = { 'Tus-Resumable': '1.0.0' };
/** How long an instance's hold on a resumable upload outlives it (UploadLease), with room for a busy machine. */
const UPLOAD_LEASE_DEADLINE_MS = 60_000;

const world = new FaultWorld();

// A scenario waits for leases of dead instances to run out (up to 30 s for a resumable upload, 8 s for a delivery).
jest.setTimeout(150_000);

beforeAll(() => world.start(), 240_000);
// A scenario that failed leaves the next one both instances all the same.
afterEach(async () => {
  await world.restarted().catch(() => undefined);
  for (const name of ['a', 'b']) if (!world.instances.has(name)) await world.startInstance(name);
});
afterAll(() => world.stop(), 60_000);

/** A request whose body the test writes piece by piece, to SIGKILL the instance while the bytes flow. */
function openRequest(url: string, method: string, headers: Record<string, string>): ClientRequest {
  const req = httpRequest(url, { method, headers: { Authorization: `Bearer ${world.token}`, ...headers } });
  req.on('error', () => undefined);
  return req;
}

async function createTus(name: string, path: string, length: number): Promise<string> {
  const res = await fetch(`${world.url(name)}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${world.token}`, ...TUS, 'Upload-Length': String(length) },
  });
  if (res.status !== 201) throw new Error(`Creating the upload answered ${res.status}: ${await res.text()}`);
  return new URL(res.headers.get('location')!).pathname;
}

function patch(name: string, location: string, offset: number, body: Buffer): Promise<Response> {
  return fetch(`${world.url(name)}${location}`, {
    method: 'PATCH',
    headers: {
      Authorization: `Bearer ${world.token}`,
      ...TUS,
      'Content-Type': 'application/offset+octet-stream',
      'Upload-Offset': String(offset),
    },
    body,
  });
}

async function offsetOn(name: string, location: string): Promise<number> {
  const res = await fetch(`${world.url(name)}${location}`, {
    method: 'HEAD',
    headers: { Authorization: `Bearer ${world.token}`, ...TUS },
  });
  if (res.status !== 200) throw new Error(`HEAD of the upload answered ${res.status}`);
  return Number(res.headers.get('upload-offset'));
}

/**
 * Sends the rest of an upload on another instance, once the dead instance's hold on it has run out (423 until then):
 * what was stored before the crash is kept, the rest goes on from the offset the upload reports.
 */
async function finishElsewhere(name: string, location: string, file: Buffer): Promise<string> {
  const offset = await offsetOn(name, location);
  await eventually(
    'the dead instance’s hold on the upload to end',
    async () => {
      const res = await patch(name, location, offset, Buffer.alloc(0));
      if (res.status === 423) return undefined;
      if (res.status !== 204) throw new Error(`An empty PATCH answered ${res.status}: ${await res.text()}`);
      return true;
    },
    UPLOAD_LEASE_DEADLINE_MS,
    1_000,
  );
  const last = await patch(name, location, offset, file.subarray(offset));
  if (last.status !== 204) throw new Error(`The last PATCH answered ${last.status}: ${await last.text()}`);
  return last.headers.get('file-id')!;
}

async function recordsOf(attachmentType: string, attachmentId: number) {
  return world.query<{ id: number; storage_key: string; checksum_sha256: string; size: string }>(
    'SELECT id, path AS storage_key, checksum_sha256, size FROM file_records WHERE attachment_type = $1 AND attachment_id = $2',
    [attachmentType, attachmentId],
  );
}

async function health(name: string): Promise<{ status: number; checks?: Record<string, string> }> {
  const res = await fetch(`${world.url(name)}/health`);
  const body = (await res.json()) as { checks?: Record<string, string> };
  return { status: res.status, checks: body.checks };
}

describe('An instance SIGKILLed in the middle of a write', () => {
  it('1. a multipart upload with its bytes flowing to S3: no record, no object, after a restart and a sweep', async () => {
    const article = await world.newEntity('articles');
    const boundary = 'faultboundary';
    const upload = openRequest(`${world.url('a')}/files/article/${article}/attachments`, 'POST', {
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
    });
    upload.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`);
    const seen = world.storage.seen.length;
    // Past the first 8 MiB part, the service streams parts to S3 as the body arrives.
    await eventually(
      'a part of the upload to reach S3',
      () => {
        upload.write(randomBytes(MiB));
        return world.storage.seen.slice(seen).some(s3.uploadPart) ? true : undefined;
      },
      30_000,
      50,
    );
    await world.kill('a');
    upload.destroy();

    expect(await recordsOf('article', article)).toEqual([]);
    const articleBody = (await world.request('b', 'GET', `/articles/${article}`)).body;
    expect(articleBody.attachments).toEqual([]);
    const leftOpen = [...world.storage.openMultipartUploads.values()].filter((path) =>
      path.includes(`/article/${article}/`),
    );
    // The killed instance's S3 multipart upload stays open: only the bucket's lifecycle rule ends it (docs/operations.md).
    expect(leftOpen).toHaveLength(1);
    const report = await world.checkInvariants(leftOpen.map((path) => path.split('/').slice(2).join('/')));
    expect(await world.objects(`article/${article}/`)).toEqual([]);
    expect(report.openMultipartUploads).toHaveLength(1);
  });

  it('2. a tus PATCH with its bytes flowing: the upload goes on from its last stored offset on the other instance', async () => {
    const article = await world.newEntity('articles');
    const file = randomBytes(12 * MiB + 321);
    const location = await createTus('a', `/files/article/${article}/attachments`, file.length);
    expect((await patch('a', location, 0, file.subarray(0, 6 * MiB))).status).toBe(204);

    // The next body is sent as part 2 while it arrives: the part is held on its way to S3, and the instance killed.
    const held = world.storage.hold(s3.uploadPart);
    const body = file.subarray(6 * MiB, 12 * MiB);
    const streaming = openRequest(`${world.url('a')}${location}`, 'PATCH', {
      ...TUS,
      'Content-Type': 'application/offset+octet-stream',
      'Upload-Offset': String(6 * MiB),
      'Content-Length': String(body.length),
    });
    streaming.write(body);
    await held.reached;
    await world.kill('a');
    streaming.destroy();

    expect(await offsetOn('b', location)).toBe(6 * MiB);
    const fileId = await finishElsewhere('b', location, file);
    const [record] = await recordsOf('article', article);
    expect(record).toMatchObject({ id: Number(fileId), checksum_sha256: sha256(file), size: String(file.length) });
    await world.checkInvariants();
    expect(await world.objects('.resumable/')).toEqual([]);
  });

  it('3a. the completion of a tus upload (CompleteMultipartUpload held): the other instance completes it', async () => {
    const article = await world.newEntity('articles');
    const file = randomBytes(6 * MiB + 1000);
    const location = await createTus('b', `/files/article/${article}/attachments`, file.length);
    expect((await patch('b', location, 0, file.subarray(0, 6 * MiB))).status).toBe(204);

    const held = world.storage.hold(s3.complete);
    const completing = patch('b', location, 6 * MiB, file.subarray(6 * MiB)).catch(() => undefined);
    await held.reached;
    await world.kill('b');
    await completing;

    // Nothing was recorded; the upload is where its last stored request left it, on the other instance.
    expect(await recordsOf('article', article)).toEqual([]);
    const fileId = await finishElsewhere('a', location, file);
    const [record] = await recordsOf('article', article);
    expect(record).toMatchObject({ id: Number(fileId), checksum_sha256: sha256(file) });
    const content = Buffer.from(
      await (
        await fetch(`${world.url('a')}/files/${fileId}/content`, {
          headers: { Authorization: `Bearer ${world.token}` },
        })
      ).arrayBuffer(),
    );
    expect(sha256(content)).toBe(sha256(file));
    await world.checkInvariants();
  });

  it('3b. the commit of an upload (the record’s INSERT held): the stored bytes are swept, no record appears', async () => {
    const product = await world.newEntity('products');
    const held = world.postgres.hold((text) => /INSERT INTO \S*"file_records"/.test(text));
    const uploading = world
      .upload('a', `/files/product/${product}/gallery`, pdfOf(200_000), 'doc.pdf')
      .catch(() => undefined);
    await held.reached;
    const stored = await world.objects(`product/${product}/`);
    // The bytes are in the bucket before their record is written.
    expect(stored).toHaveLength(1);
    await world.kill('a');
    await uploading;

    expect(await recordsOf('product', product)).toEqual([]);
    const report = await world.checkInvariants();
    expect(report.swept).toEqual(stored);
    expect(await world.objects(`product/${product}/`)).toEqual([]);
  });

  it('4. the making of an image variant (its object held on the way to S3): another instance makes it', async () => {
    const product = await world.newEntity('products');
    const held = world.storage.hold(s3.putObject(/\.(thumb|large)-/));
    const res = await world.upload('a', `/files/product/${product}/cover`, PNG, 'cover.png');
    expect(res.status).toBe(201);
    await held.reached;
    await world.kill('a');

    const [record] = await recordsOf('product', product);
    expect(await world.objectExists(record.storage_key)).toBe(true);
    // A read that finds variants missing starts making them.
    expect((await world.request('b', 'GET', `/products/${product}`)).status).toBe(200);
    await world.checkInvariants();
  });

  it('5. a webhook delivery (the receiver holds the request): delivered by the other instance, acknowledged once', async () => {
    const product = await world.newEntity('products');
    const arrived = world.receiver.arrived.length;
    const held = world.receiver.holdNext();
    expect((await world.upload('b', `/files/product/${product}/gallery`, pdfOf(10_000), 'a.pdf')).status).toBe(201);
    await held.reached;
    const eventId = world.receiver.arrived[arrived];
    const receiverPort = Number(new URL(world.receiver.url).port);
    const pids = new Map([...world.instances].map(([name, instance]) => [instance.child.pid!, name]));
    const sender = await connectionOwner(world.receiver.senderPorts[arrived], receiverPort, [...pids.keys()]);
    expect(sender).toBeDefined();
    const killed = pids.get(sender!)!;
    await world.kill(killed);

    // The dead instance's lease on the delivery runs out; the other claims it and sends it again.
    await eventually(
      'the other instance to deliver the event',
      () => (world.receiver.acknowledged.includes(eventId) ? true : undefined),
      60_000,
      100,
    );
    expect(world.receiver.arrived.filter((id) => id === eventId)).toHaveLength(2);
    held.release();
    await world.checkInvariants();
  });

  it('6. a signing-key rotation (CLI; the retirement held): all of it or none of it, and tokens keep working', async () => {
    const keysBefore = await world.query<{ kid: string }>(
      "SELECT kid FROM signing_keys WHERE retired_at IS NULL AND purpose = 'access-token'",
    );
    expect(keysBefore).toHaveLength(1);
    const held = world.postgres.hold((text) => /UPDATE \S*"signing_keys"/.test(text));
    const cli = spawn(process.execPath, [join(world.build.dir, 'src/cli.js'), 'rotate-signing-key'], {
      env: { ...process.env, ...world.database.env, DATABASE_URL: world.proxiedDatabaseUrl(), LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => cli.once('close', resolve));
    await held.reached;
    cli.kill('SIGKILL');
    await exited;

    // The new key and the old one's retirement go together: a key half-rotated would stay published for ever.
    const keys = await world.query<{ kid: string; retired_at: string | null }>(
      "SELECT kid, retired_at FROM signing_keys WHERE purpose = 'access-token' ORDER BY created_at",
    );
    const newest = keys.at(-1)!;
    expect(keys.filter((key) => key !== newest && key.retired_at === null)).toEqual([]);
    if (keys.length === 1) expect(newest.kid).toBe(keysBefore[0].kid);

    // Tokens keep working on both instances, and a rotation run again goes through.
    for (const name of ['a', 'b']) expect((await world.request(name, 'GET', '/products')).status).toBe(200);
    await world.build.run('src/cli.js', ['rotate-signing-key'], { ...world.database.env, LOG_LEVEL: 'silent' });
    const after = await world.query<{ kid: string }>(
      "SELECT kid FROM signing_keys WHERE retired_at IS NULL AND purpose = 'access-token'",
    );
    expect(after).toHaveLength(1);
    expect(after[0].kid).not.toBe(keysBefore[0].kid);
    for (const name of ['a', 'b']) expect((await world.request(name, 'GET', '/products')).status).toBe(200);
    await world.checkInvariants();
  });
});

/** Uploads an article's attachments take before the field is full (10), less room for the test's own. */
const UPLOADS_PER_ARTICLE = 9;

/**
 * Writes on both instances, one after the other on each, until stopped: uploads (each instance into articles of its
 * own, so no field fills up) and product changes. Keeps every status, and the ids of the records uploads created.
 */
async function writeLoad() {
  const product = await world.newEntity('products');
  const articles = new Map<string, number[]>();
  for (const name of ['a', 'b']) {
    articles.set(name, [await world.newEntity('articles'), await world.newEntity('articles')]);
  }
  const statuses: number[] = [];
  const created: number[] = [];
  /** Requests that got no answer at all (status 0): at which index of `statuses`, and why. */
  const failures: Array<{ at: number; why: string }> = [];
  let running = true;
  const loop = async (name: string) => {
    const mine = articles.get(name)!;
    let uploads = 0;
    for (let i = 0; running && i < 1_000; i++) {
      if (i % 2 === 0 && uploads >= mine.length * UPLOADS_PER_ARTICLE) {
        mine.push(await world.newEntity('articles'));
      }
      const article = mine[Math.floor(uploads / UPLOADS_PER_ARTICLE)];
      const write =
        i % 2 === 0
          ? world.upload(name, `/files/article/${article}/attachments`, pdfOf(20_000), `${name}-${i}.pdf`)
          : world.request(name, 'PATCH', `/products/${product}`, { name: `${name}-${i}` });
      const res = await write.catch((error: Error): { status: number; body: Record<string, unknown> } => {
        const cause = (error.cause as Error | undefined)?.message ?? '';
        failures.push({ at: statuses.length, why: `${name}: ${error.message} ${cause}` });
        return { status: 0, body: {} };
      });
      statuses.push(res.status);
      if (i % 2 === 0 && res.status === 201) {
        uploads += 1;
        created.push(res.body.id as number);
      }
    }
  };
  const loops = Promise.all([loop('a'), loop('b')]);
  return {
    statuses,
    created,
    failures,
    product,
    /** The ids of the records in every article the load uploaded to. */
    records: async () =>
      (
        await world.query<{ id: number }>(
          "SELECT id FROM file_records WHERE attachment_type = 'article' AND attachment_id = ANY($1)",
          [[...articles.values()].flat()],
        )
      ).map((row) => row.id),
    /** Waits until `count` more writes have been answered. */
    answered: (count: number, timeoutMs = 30_000) => {
      const target = statuses.length + count;
      return eventually(
        `${count} more writes to be answered`,
        () => (statuses.length >= target ? true : undefined),
        timeoutMs,
      );
    },
    stop: async () => {
      running = false;
      await loops;
    },
  };
}

const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);

describe('A dependency gone under load', () => {
  it('7. PostgreSQL cut off and refusing: writes answer 503, /health says database down, then all is well', async () => {
    const load = await writeLoad();
    await load.answered(6);
    const before = load.statuses.length;

    world.postgres.cut();
    await load.answered(10);
    const down = await Promise.all(['a', 'b'].map(health));
    const during = load.statuses.slice(before);
    world.postgres.restore();
    const restored = load.statuses.length;

    await eventually(
      'both instances to be healthy again',
      async () => ((await Promise.all(['a', 'b'].map(health))).every((h) => h.status === 200) ? true : undefined),
      30_000,
      100,
    );
    const after = load.statuses.length;
    await load.answered(6);
    await load.stop();

    expect(down).toEqual([
      { status: 503, checks: { database: 'down', storage: 'up' } },
      { status: 503, checks: { database: 'down', storage: 'up' } },
    ]);
    expect(during.filter((status) => status === 503).length).toBeGreaterThan(0);
    // Never a 500: a write either went through before the cut, or was refused as the database being unavailable. An
    // upload refused before its body was read is answered at once and its connection closed (ProblemDetailsFilter):
    // a client still sending may see only the close, so during the outage an upload may go unanswered.
    const unanswered = load.failures.filter(({ at }) => at < before || at > restored + 2);
    expect(unanswered).toEqual([]);
    expect(load.statuses.filter((status) => status !== 0 && status !== 503 && (status < 200 || status >= 300))).toEqual(
      [],
    );
    expect(load.statuses.slice(after + 2).filter((status) => status >= 300)).toEqual([]);
    // Nothing half-written: a record for each 201, and no other.
    expect(sorted(await load.records())).toEqual(sorted(load.created));
    await world.checkInvariants();
  });

  it('8. Redis hung (SIGSTOP) and resumed: writes and reads go on, /health stays up', async () => {
    const load = await writeLoad();
    await load.answered(4);
    world.redis.signal('SIGSTOP');
    let healthWhileHung: Array<{ status: number; checks?: Record<string, string> }> = [];
    try {
      await load.answered(10);
      // Redis only shares limits and revocations between instances, each falling back on its own: nothing is down.
      healthWhileHung = await Promise.all(['a', 'b'].map(health));
      for (const name of ['a', 'b'])
        expect((await world.request(name, 'GET', `/products/${load.product}`)).status).toBe(200);
    } finally {
      world.redis.signal('SIGCONT');
    }
    await load.answered(4);
    await load.stop();
    expect(healthWhileHung.map((h) => h.status)).toEqual([200, 200]);
    expect(load.statuses.filter((status) => status < 200 || status >= 300)).toEqual([]);
    expect(sorted(await load.records())).toEqual(sorted(load.created));
    await world.checkInvariants();
  });

  it('9. the storage answering 5xx: uploads are 503 problems, nothing recorded, /health says storage down', async () => {
    const product = await world.newEntity('products');
    world.storage.fail(s3.any, 503, 'ServiceUnavailable');
    let refused: Array<{ status: number; headers: Headers; body: Record<string, unknown> }> = [];
    let down: Array<{ status: number; checks?: Record<string, string> }> = [];
    try {
      refused = await Promise.all(
        ['a', 'b'].flatMap((name) => [
          world.upload(name, `/files/product/${product}/gallery`, pdfOf(50_000), 'g.pdf'),
          world.upload(name, `/files/product/${product}/cover`, PNG, 'c.png'),
        ]),
      );
      down = await Promise.all(['a', 'b'].map(health));
    } finally {
      world.storage.heal();
    }
    for (const res of refused) {
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 503, type: '/problems/storage-unavailable' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(down.map((h) => [h.status, h.checks?.storage])).toEqual([
      [503, 'down'],
      [503, 'down'],
    ]);
    expect(await recordsOf('product', product)).toEqual([]);
    expect((await world.upload('b', `/files/product/${product}/gallery`, pdfOf(50_000), 'g.pdf')).status).toBe(201);
    await world.checkInvariants();
  });
});
