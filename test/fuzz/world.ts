/*
 * The entities the fuzz needs so its requests reach past "not found": existing ids for path parameters, names for
 * bodies, and its principals (an administrator; per permission, an integration holding only it). Entities the fuzz
 * may delete or change are its own ("sacrificial"); those its principals stand on are protected from path parameters.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { basic, integrationToken } from '../support/admin-api.js';
import { GIF, PDF, PNG } from '../support/fixtures.js';
import { ADMIN_PASSWORD, passwordToken, type TestApp } from '../support/test-app.js';
import type { Hints } from './arbitraries.js';

export type Pool =
  | 'integration'
  | 'oauthClient'
  | 'role'
  | 'user'
  | 'webhook'
  | 'delivery'
  | 'product'
  | 'article'
  | 'attachment'
  | 'attachmentType'
  | 'field'
  | 'file'
  | 'variant'
  | 'tusUpload'
  | 'directUpload';

/** Which pool a path parameter's values come from, by path and name. */
export function poolOf(path: string, parameter: string): Pool | undefined {
  if (parameter === 'attachmentType') return 'attachmentType';
  if (parameter === 'fieldName') return 'field';
  if (parameter === 'deliveryId') return 'delivery';
  if (parameter === 'clientId') return 'oauthClient';
  if (parameter === 'uploadId') return path.startsWith('/files/direct-uploads') ? 'directUpload' : 'tusUpload';
  if (parameter === 'name' && path.includes('/variants/')) return 'variant';
  if (parameter === 'attachmentId') {
    if (path.startsWith('/files/product/')) return 'product';
    if (path.startsWith('/files/article/')) return 'article';
    return 'attachment';
  }
  const byPrefix: Array<[RegExp, Pool]> = [
    [/^\/api\/integrations\//, 'integration'],
    [/^\/api\/oauth\/clients\//, 'oauthClient'],
    [/^\/api\/roles\//, 'role'],
    [/^\/api\/users\//, 'user'],
    [/^\/api\/webhooks\//, 'webhook'],
    [/^\/products\//, 'product'],
    [/^\/articles\//, 'article'],
    [/^\/files\//, 'file'],
  ];
  return byPrefix.find(([prefix]) => prefix.test(path))?.[1];
}

export interface Principals {
  admin: string;
  /** Permission → access token of an integration whose role holds only that permission. */
  scoped: Map<string, string>;
}

export const USER_PASSWORD = 'fuzz user password 1';
const CALLBACK = 'https://shop.example/oauth/callback';
/** Never called: the fuzz runs the application without its webhook dispatcher (port 9 is discard). */
const WEBHOOK_URL = 'http://127.0.0.1:9/hooks';
const TUS_FILE = PNG;

export class World {
  readonly pools = new Map<Pool, string[]>();
  /** Values of each pool that path parameters must not name: the principals stand on them. */
  readonly protected = new Map<Pool, Set<string>>();
  principals!: Principals;
  permissions: string[] = [];
  eventTypes: string[] = [];
  roleNames: string[] = [];
  userNames: string[] = [];
  /** client_id → secret (confidential clients and integrations), for token requests that pass. */
  credentials = new Map<string, string>();
  /** A role the fuzz cannot delete (a principal stands on it), for the users and integrations it makes. */
  private stableRole = 'admin';
  /** Replacements that could not be made, reported at the end. */
  readonly shortfalls: string[] = [];
  private serial = 0;

  constructor(private readonly t: TestApp) {}

  values(pool: Pool): string[] {
    return this.pools.get(pool) ?? [];
  }

  isProtected(pool: Pool, value: string): boolean {
    return this.protected.get(pool)?.has(value) ?? false;
  }

  private add(pool: Pool, ...values: Array<string | number>): void {
    this.pools.set(pool, [...this.values(pool), ...values.map(String)]);
  }

  private protect(pool: Pool, ...values: Array<string | number>): void {
    const set = this.protected.get(pool) ?? new Set<string>();
    for (const value of values) set.add(String(value));
    this.protected.set(pool, set);
  }

  private unique(prefix: string): string {
    this.serial += 1;
    return `${prefix}-${this.serial}`;
  }

  async build(): Promise<void> {
    const { http } = this.t;
    const me = (await http.get('/api/me').expect(200)).body as { id: number; role: { id: number; name: string } };
    this.protect('user', me.id);
    this.protect('role', me.role.id);
    this.protect('oauthClient', 'administration');
    this.permissions = ((await http.get('/api/permissions').expect(200)).body as Array<{ permission: string }>).map(
      (p) => p.permission,
    );
    this.eventTypes = ((await http.get('/api/webhooks/event-types').expect(200)).body as Array<{ event: string }>).map(
      (e) => e.event,
    );
    const types = (await http.get('/files/fields').expect(200)).body as Array<{
      attachment_type: string;
      fields: Array<{ name: string; variants?: string[] }>;
    }>;
    this.add('attachmentType', ...types.map((type) => type.attachment_type));
    this.add('field', ...new Set(types.flatMap((type) => type.fields.map((field) => field.name))));
    this.add('variant', ...new Set(types.flatMap((type) => type.fields.flatMap((field) => field.variants ?? []))));

    const scoped = new Map<string, string>();
    for (const permission of this.permissions.filter((p) => p !== '*')) {
      const role = (
        await http
          .post('/api/roles')
          .send({ name: `fuzz-only-${permission.replace(':', '-')}`, permissions: [permission] })
          .expect(201)
      ).body as { id: number; name: string };
      const integration = (
        await http
          .post('/api/integrations')
          .send({ label: `fuzz ${permission}`, role: role.name })
          .expect(201)
      ).body as { id: number; access_key_id: string; secret_access_key: string };
      this.protect('role', role.id);
      if (permission === 'product:read') this.stableRole = role.name;
      this.protect('integration', integration.id);
      scoped.set(permission, await integrationToken(this.t.url, integration));
    }
    this.principals = { admin: (await passwordToken(this.t.url, 'admin', ADMIN_PASSWORD)).access_token, scoped };

    for (let i = 0; i < 3; i++) for (const pool of ['role', 'user', 'integration'] as const) await this.create(pool);
    for (let i = 0; i < 2; i++) for (const pool of ['oauthClient', 'webhook'] as const) await this.create(pool);
    for (let i = 0; i < 3; i++) for (const pool of ['product', 'article'] as const) await this.create(pool);
    for (let i = 0; i < 4; i++) await this.create('file');
    for (let i = 0; i < 3; i++) await this.create('tusUpload');
    for (let i = 0; i < 2; i++) await this.create('delivery');
    await this.create('directUpload');
  }

  /** Replaces `value` of `pool` after the fuzz deleted it, so later requests still find one. */
  async replace(pool: Pool, value: string): Promise<void> {
    const left = this.values(pool).filter((v) => v !== value);
    if (left.length === this.values(pool).length) return;
    this.pools.set(pool, left);
    try {
      await this.create(pool);
    } catch (error) {
      // The fuzz fills fields to their limits (a gallery's 30 files): later requests then use the ones left.
      this.shortfalls.push(`${pool}: ${(error as Error).message.slice(0, 200)}`);
    }
  }

  /** Creates one sacrificial entity of `pool` through the administration API (as the administrator). */
  async create(pool: Pool): Promise<void> {
    const { http } = this.t;
    switch (pool) {
      case 'role': {
        const name = this.unique('fuzz-role');
        const body = (
          await http
            .post('/api/roles')
            .send({ name, permissions: ['product:read'] })
            .expect(201)
        ).body;
        this.roleNames.push(name);
        return this.add('role', (body as { id: number }).id);
      }
      case 'user': {
        const username = this.unique('fuzz-user');
        const role = this.stableRole;
        const body = (await http.post('/api/users').send({ username, password: USER_PASSWORD, role }).expect(201))
          .body as { id: number };
        this.userNames.push(username);
        return this.add('user', body.id);
      }
      case 'integration': {
        const body = (
          await http
            .post('/api/integrations')
            .send({ label: this.unique('fuzz-integration'), role: this.stableRole })
            .expect(201)
        ).body as { id: number; access_key_id: string; secret_access_key: string };
        this.credentials.set(body.access_key_id, body.secret_access_key);
        return this.add('integration', body.id);
      }
      case 'oauthClient': {
        const confidential = this.values('oauthClient').length % 2 === 1;
        const body = (
          await http
            .post('/api/oauth/clients')
            .send({
              name: this.unique('Fuzz shop'),
              redirect_uris: [CALLBACK],
              public: !confidential,
              scopes: ['product:read'],
            })
            .expect(201)
        ).body as { client_id: string; client_secret?: string };
        if (body.client_secret) this.credentials.set(body.client_id, body.client_secret);
        return this.add('oauthClient', body.client_id);
      }
      case 'webhook': {
        const body = (
          await http
            .post('/api/webhooks')
            .send({ url: WEBHOOK_URL, events: ['*'] })
            .expect(201)
        ).body as { id: number };
        return this.add('webhook', body.id);
      }
      case 'delivery': {
        const webhook = this.values('webhook')[0];
        if (!webhook) return;
        await http.post(`/api/webhooks/${webhook}/ping`).expect(202);
        const page = (await http.get(`/api/webhooks/${webhook}/deliveries`).expect(200)).body as {
          items: Array<{ id: number }>;
        };
        const known = new Set(this.values('delivery'));
        return this.add('delivery', ...page.items.map((item) => String(item.id)).filter((id) => !known.has(id)));
      }
      case 'product':
      case 'article': {
        const body =
          pool === 'product' ? { name: this.unique('fuzz product') } : { title: this.unique('fuzz article') };
        const created = (await http.post(`/${pool}s`).send(body).expect(201)).body as { id: number };
        this.add('attachment', created.id);
        return this.add(pool, created.id);
      }
      case 'file': {
        const product = this.values('product')[0];
        const article = this.values('article')[0];
        const n = this.values('file').length;
        const [path, bytes, name] =
          n % 2 === 0
            ? [`/files/product/${product}/gallery`, GIF, 'fuzz.gif']
            : [`/files/article/${article}/attachments`, PDF, 'fuzz.pdf'];
        const res = await http.post(path).attach('file', bytes, name);
        if (res.status !== 201) throw new Error(`Uploading a file for the fuzz: ${res.status} ${res.text}`);
        const body = res.body as { id?: number } | Array<{ id: number }>;
        const ids = Array.isArray(body) ? body.map((file) => file.id) : [body.id];
        return this.add('file', ...ids.filter((id): id is number => id !== undefined));
      }
      case 'tusUpload': {
        const product = this.values('product')[0];
        const res = await http
          .post(`/files/product/${product}/gallery`)
          .set({
            'Tus-Resumable': '1.0.0',
            'Upload-Length': String(TUS_FILE.length),
            'Upload-Metadata': `filename ${Buffer.from('fuzz.png').toString('base64')},filetype ${Buffer.from('image/png').toString('base64')}`,
          })
          .expect(201);
        return this.add('tusUpload', new URL(res.headers.location).pathname.split('/').pop()!);
      }
      case 'directUpload': {
        const product = this.values('product')[0];
        const res = await http
          .post(`/files/product/${product}/gallery/direct-uploads`)
          .send({ filename: 'fuzz.png', content_type: 'image/png', size: PNG.length });
        // Only S3 storage takes direct uploads; on local disk the pool stays empty and ids come from the schema.
        if (res.status === 201) this.add('directUpload', (res.body as { id: string }).id);
        return;
      }
      default:
        return;
    }
  }

  /** Valid values for body properties and query parameters of these names. */
  hints(): Hints {
    const some = <T>(values: T[]) => (values.length > 0 ? fc.constantFrom(...values) : fc.constant(undefined));
    const permissions = this.permissions.length > 0 ? this.permissions : ['product:read'];
    const clients = [...this.credentials.keys(), ...this.values('oauthClient'), 'administration'];
    return {
      role: some([...this.roleNames, 'admin']),
      permissions: fc.subarray(permissions, { minLength: 1 }),
      scopes: fc.subarray(['product:read', 'article:read'], { minLength: 1 }),
      default_scopes: fc.subarray(['product:read']),
      scope: fc.constantFrom('product:read', 'article:read product:read', '*'),
      events: fc.subarray([...this.eventTypes, '*'], { minLength: 1 }),
      url: fc.constantFrom(WEBHOOK_URL, `${WEBHOOK_URL}/other`),
      redirect_uris: fc.constant([CALLBACK]),
      redirect_uri: fc.constant(CALLBACK),
      username: fc.oneof(some(this.userNames), fc.stringMatching(/^[a-z][a-z0-9]{2,15}$/)),
      password: fc.constantFrom(USER_PASSWORD, 'another long password'),
      client_id: some(clients),
      client_secret: some([...this.credentials.values()]),
      ids: fc.subarray(this.values('file').map(Number)),
      content_type: fc.constantFrom('image/png', 'image/gif', 'application/pdf'),
      filename: fc.constantFrom('photo.png', 'report.pdf'),
      size: fc.integer({ min: 1, max: 1_000_000 }),
      actor: fc.constantFrom('user:1', 'cli', 'integration:1'),
      response_type: fc.constant('code'),
      code_challenge_method: fc.constant('S256'),
      code_challenge: fc.constant(createHash('sha256').update('fuzz verifier').digest('base64url')),
    };
  }

  /** An integration's credentials as an Authorization header, for client authentication mutations. */
  basicAuthorization(): string | undefined {
    const [id, secret] = [...this.credentials.entries()][0] ?? [];
    return id && secret ? basic(id, secret) : undefined;
  }
}
