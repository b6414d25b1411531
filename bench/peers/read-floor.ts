/**
 * Benchmark peer (not a test): the floor for the catalog's reads made anew, the least work that gives the service's
 * answer. node:http and no framework; per request one prepared query against the service's own database (SQLite
 * through better-sqlite3, or PostgreSQL through pg) for the rows and their files, objects built by hand in the order
 * of the service's JSON, file URLs signed as the service signs them (HMAC-SHA256 under the key HKDF derives from
 * SECRETS_KEY for `file-urls`, the same windows, kept for the window as the service keeps them), one
 * `JSON.stringify`. It checks no access token and makes no missing image variant: it is a floor.
 *
 * Answers `GET /products/:id` and `GET /products?limit=&offset=` (the default order, no search) with the same bytes
 * as the service; the bench compares one answer of each, byte for byte, before it measures. The product's fields are
 * written here as the entity declares them (a cover with `thumb` and `large`, a gallery with `thumb`): a change
 * there shows as a difference in that comparison.
 *
 * Environment: PORT; FLOOR_SQLITE_PATH, or FLOOR_DATABASE_URL and FLOOR_DATABASE_SCHEMA; FLOOR_SECRETS_KEY (base64,
 * 32 bytes); FLOOR_PUBLIC_URL (the service's issuer); FLOOR_URL_TTL_SECONDS (3600, FILE_URL_TTL's default).
 */
import { createHmac, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import pg from 'pg';

/** One row of either query: a product, and one of its files (the file columns null for a product without files). */
interface Row {
  id: number;
  name: string;
  description: string | null;
  created_at: string | Date;
  updated_at: string | Date;
  total?: number | string;
  f_id: number | null;
  f_path: string;
  f_field: string;
  f_sort_order: number;
  f_original_name: string;
  f_mime_type: string;
  f_size: number | string;
  f_width: number | null;
  f_height: number | null;
  f_checksum_sha256: string;
  f_variants: string | null;
  f_created_at: string | Date;
  f_updated_at: string | Date;
}

const FILE_COLUMNS = `f.id AS f_id, f.path AS f_path, f.field AS f_field, f.sort_order AS f_sort_order,
  f.original_name AS f_original_name, f.mime_type AS f_mime_type, f.size AS f_size, f.width AS f_width,
  f.height AS f_height, f.checksum_sha256 AS f_checksum_sha256, f.variants AS f_variants,
  f.created_at AS f_created_at, f.updated_at AS f_updated_at`;
const FILES_OF_P = `LEFT JOIN file_records f ON f.attachment_type = 'product' AND f.attachment_id = p.id`;

// Files are put in their order by productsOf: SQLite reads them in that order from its index anyway, and sorting
// them again in SQL cost a third of the page's query.
/** `$1`, `$2` on PostgreSQL, `?` on SQLite. */
const productSql = (p: (n: number) => string) =>
  `SELECT p.id, p.name, p.description, p.created_at, p.updated_at, ${FILE_COLUMNS}
   FROM products p ${FILES_OF_P} WHERE p.id = ${p(1)}`;
// The count of the whole collection rides on every row of the page (the service counts it in a query of its own).
const pageSql = (p: (n: number) => string) =>
  `SELECT p.id, p.name, p.description, p.created_at, p.updated_at, (SELECT COUNT(*) FROM products) AS total,
     ${FILE_COLUMNS}
   FROM (SELECT id, name, description, created_at, updated_at FROM products ORDER BY id LIMIT ${p(1)} OFFSET ${p(2)}) p
   ${FILES_OF_P} ORDER BY p.id`;
const COUNT_SQL = 'SELECT COUNT(*) AS total FROM products';

/** Runs one of the three prepared queries. */
interface Queries {
  product(id: number): Promise<Row[]>;
  page(limit: number, offset: number): Promise<Row[]>;
  count(): Promise<number>;
}

function sqliteQueries(path: string): Queries {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const product = db.prepare<Row>(productSql(() => '?'));
  const page = db.prepare<Row>(pageSql(() => '?'));
  const count = db.prepare<{ total: number }>(COUNT_SQL);
  return {
    product: (id) => Promise.resolve(product.all(id)),
    page: (limit, offset) => Promise.resolve(page.all(limit, offset)),
    count: () => Promise.resolve(count.all()[0].total),
  };
}

function postgresQueries(url: string, schema: string | undefined): Queries {
  // As many connections as TypeORM's pool by default.
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const run = async (name: string, text: string, values: unknown[]) =>
    (await pool.query<Row>({ name, text, values })).rows;
  const product = productSql((n) => `$${n}`);
  const page = pageSql((n) => `$${n}`);
  return {
    product: (id) => run('floor-product', product, [id]),
    page: (limit, offset) => run('floor-page', page, [limit, offset]),
    count: async () => Number((await run('floor-count', COUNT_SQL, []))[0].total),
  };
}

/** The same ISO string the service shows: SQLite's `YYYY-MM-DD HH:MM:SS[.SSS]` is UTC; PostgreSQL's is a Date. */
function iso(value: string | Date): string {
  if (value instanceof Date) return value.toISOString();
  if (value.length === 19) return `${value.slice(0, 10)}T${value.slice(11)}.000Z`;
  if (value.length === 23) return `${value.slice(0, 10)}T${value.slice(11)}Z`;
  return new Date(`${value.replace(' ', 'T')}Z`).toISOString();
}

/**
 * File URLs as the service makes them: per window, signed over the bytes they name, kept for the window (by storage
 * key, which names the record and, for a variant, the variant).
 */
class Signer {
  private readonly key: KeyObject;
  private readonly base: string;
  private readonly window: number;
  private cache = new Map<string, string>();
  private cacheStart = -1;
  private start = 0;
  private expires = 0;

  constructor(
    secretsKey: Buffer,
    publicUrl: string,
    private readonly ttl: number,
  ) {
    this.key = createSecretKey(
      Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'secrets-key:file-urls', 32)),
    );
    this.base = `${publicUrl.replace(/\/+$/, '')}/files/`;
    this.window = Math.min(ttl, 3600);
  }

  /** Fixes the window for one answer. */
  now(): void {
    const now = Math.floor(Date.now() / 1000);
    this.start = now - (now % this.window);
    this.expires = this.start + this.window + this.ttl;
    if (this.start !== this.cacheStart) {
      this.cache = new Map();
      this.cacheStart = this.start;
    }
  }

  url(id: number, storageKey: string, variant?: string, variantKey?: string): string {
    const cacheKey = variantKey ?? storageKey;
    let url = this.cache.get(cacheKey);
    if (url === undefined) {
      const message = `file-url:v1\n${id}\n${storageKey}\n${variant ?? ''}\n${variantKey ?? ''}\n${this.expires}`;
      const signature = createHmac('sha256', this.key).update(message).digest('base64url');
      const named = variant ? `variant=${encodeURIComponent(variant)}&` : '';
      url = `${this.base}${id}/signed?${named}expires=${this.expires}&signature=${signature}`;
      this.cache.set(cacheKey, url);
    }
    return url;
  }
}

/** What the `variants` column holds for one variant. */
type VariantState =
  { key: string; width: number; height: number; size: number; mimeType: string } | { key: string; failed: true };

/** The variants each file field declares, in their order. */
const FIELD_VARIANTS: Record<string, string[]> = { cover: ['thumb', 'large'], gallery: ['thumb'] };

function fileOf(row: Row, productId: number, signer: Signer) {
  const id = row.f_id!;
  const states = row.f_variants ? (JSON.parse(row.f_variants) as Record<string, VariantState>) : {};
  const variants: Record<string, object | null> = {};
  for (const name of FIELD_VARIANTS[row.f_field] ?? []) {
    const state = states[name];
    if (!state) variants[name] = null;
    else if (!('failed' in state)) {
      variants[name] = {
        url: signer.url(id, row.f_path, name, state.key),
        width: state.width,
        height: state.height,
        size: state.size,
        mime_type: state.mimeType,
      };
    }
  }
  return {
    id,
    path: row.f_path,
    url: signer.url(id, row.f_path),
    attachment_id: productId,
    attachment_type: 'product',
    field: row.f_field,
    sort_order: row.f_sort_order,
    original_name: row.f_original_name,
    mime_type: row.f_mime_type,
    size: Number(row.f_size),
    width: row.f_width,
    height: row.f_height,
    checksum_sha256: row.f_checksum_sha256,
    created_at: iso(row.f_created_at),
    updated_at: iso(row.f_updated_at),
    variants,
  };
}

type Product = ReturnType<typeof productOf>;

function productOf(row: Row) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    gallery: [] as File[],
    cover: null as File | null,
  };
}

type File = ReturnType<typeof fileOf>;

const bySortOrder = (a: File, b: File) => a.sort_order - b.sort_order;

/** The products of the rows (ordered by product), in their order, each with its files in theirs. */
function productsOf(rows: Row[], signer: Signer): Product[] {
  const products: Product[] = [];
  let current: Product | undefined;
  let unordered = false;
  for (const row of rows) {
    if (current?.id !== row.id) products.push((current = productOf(row)));
    if (row.f_id === null) continue;
    if (row.f_field === 'gallery') {
      const last = current.gallery.at(-1);
      if (last && last.sort_order > row.f_sort_order) unordered = true;
      current.gallery.push(fileOf(row, row.id, signer));
    } else if (row.f_field === 'cover' && (current.cover === null || current.cover.sort_order > row.f_sort_order)) {
      // A single field shows its first record.
      current.cover = fileOf(row, row.id, signer);
    }
  }
  if (unordered) for (const product of products) product.gallery.sort(bySortOrder);
  return products;
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

const queries = process.env.FLOOR_DATABASE_URL
  ? postgresQueries(process.env.FLOOR_DATABASE_URL, process.env.FLOOR_DATABASE_SCHEMA || undefined)
  : sqliteQueries(process.env.FLOOR_SQLITE_PATH!);
const signer = new Signer(
  Buffer.from(process.env.FLOOR_SECRETS_KEY!, 'base64'),
  process.env.FLOOR_PUBLIC_URL!,
  Number(process.env.FLOOR_URL_TTL_SECONDS ?? 3600),
);

async function answer(url: string): Promise<[number, string]> {
  const one = /^\/products\/(\d+)$/.exec(url);
  signer.now();
  if (one) {
    const [product] = productsOf(await queries.product(Number(one[1])), signer);
    return product ? [200, JSON.stringify(product)] : [404, '{"status":404}'];
  }
  const list = /^\/products(?:\?(.*))?$/.exec(url);
  if (!list) return [404, '{"status":404}'];
  const query = new URLSearchParams(list[1] ?? '');
  const limit = Number(query.get('limit') ?? 20);
  const offset = Number(query.get('offset') ?? 0);
  const rows = await queries.page(limit, offset);
  const total = rows.length > 0 ? Number(rows[0].total) : await queries.count();
  return [200, JSON.stringify({ items: productsOf(rows, signer), total, limit, offset })];
}

createServer((req, res) => {
  answer(req.url ?? '/').then(
    ([status, body]) => send(res, status, body),
    (error: unknown) => send(res, 500, JSON.stringify({ status: 500, detail: String(error) })),
  );
}).listen(Number(process.env.PORT), '127.0.0.1');
