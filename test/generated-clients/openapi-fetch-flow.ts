/*
 * The README's flow as an integration writes it with openapi-fetch, on the types openapi-typescript generates from
 * openapi.json (binary as Blob: docs/api.md, Generating a client). test/generated-clients.e2e-spec.ts generates the
 * types next to a copy of this file, type-checks it strictly and runs it: it must need no cast.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/openapi-typescript.js';

type FileRecord = components['schemas']['FileRecord'];

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

export interface FlowResult {
  productId: number;
  uploaded: FileRecord[];
  cover: FileRecord | null;
  gallery: FileRecord[];
  download: Blob;
}

/** The data of a call that succeeded; else an error with the status and the problem. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) {
    throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

/** A multipart body: one `file` part per file (openapi-fetch sends JSON unless given a FormData). */
function formOf(files: Blob[]): FormData {
  const form = new FormData();
  for (const file of files) form.append('file', file);
  return form;
}

/**
 * A token by client credentials (a form, as RFC 6749 says), a product, a cover and two gallery images uploaded, the
 * product read back with its file fields, and the cover's bytes downloaded.
 */
export async function readmeFlow(baseUrl: string, credentials: Credentials, images: [Blob, Blob]): Promise<FlowResult> {
  const api = createClient<paths>({ baseUrl });
  const token = ok(
    await api.POST('/api/oauth/token', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: {
        grant_type: 'client_credentials',
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      },
      bodySerializer: (body) => new URLSearchParams(Object.entries(body)),
    }),
    'token',
  );
  const headers = { Authorization: `Bearer ${token.access_token}` };
  const product = ok(await api.POST('/products', { headers, body: { name: 'Made by openapi-fetch' } }), 'create');
  const attachmentId = product.id;

  // A single field takes one file and answers one record.
  const cover: FileRecord = ok(
    await api.POST('/files/product/{attachmentId}/cover', {
      params: { path: { attachmentId } },
      headers,
      body: { file: images[0] },
      bodySerializer: (body) => formOf([body.file]),
    }),
    'upload the cover',
  );
  // A multi field takes several; one part answers its record, several an array.
  const added = ok(
    await api.POST('/files/product/{attachmentId}/gallery', {
      params: { path: { attachmentId } },
      headers,
      body: { file: images },
      bodySerializer: (body) => formOf(body.file),
    }),
    'upload to the gallery',
  );
  const appended: FileRecord[] = Array.isArray(added) ? added : [added];

  const read = ok(await api.GET('/products/{id}', { params: { path: { id: attachmentId } }, headers }), 'read');
  const download = ok(
    await api.GET('/files/{id}/content', { params: { path: { id: cover.id } }, headers, parseAs: 'blob' }),
    'download',
  );
  return { productId: read.id, uploaded: [cover, ...appended], cover: read.cover, gallery: read.gallery, download };
}

/** Calls the document rules out: each must fail to type-check (an unused @ts-expect-error fails the check). */
export function refusedCalls(baseUrl: string, image: Blob): void {
  const api = createClient<paths>({ baseUrl });
  // @ts-expect-error: an article has no gallery
  void api.POST('/files/article/{attachmentId}/gallery', { params: { path: { attachmentId: 1 } }, body: {} });
  void api.POST('/files/product/{attachmentId}/cover', {
    params: { path: { attachmentId: 1 } },
    // @ts-expect-error: a cover is one file
    body: { file: [image] },
  });
  // @ts-expect-error: the password grant needs a username
  void api.POST('/api/oauth/token', { body: { grant_type: 'password', client_id: 'administration', password: 'x' } });
  // @ts-expect-error: the refresh grant needs the refresh token
  void api.POST('/api/oauth/token', { body: { grant_type: 'refresh_token', client_id: 'administration' } });
}

/** The exact types of the product's file fields: `cover` is `FileRecord | null`, `gallery` `FileRecord[]`. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Product = components['schemas']['Product'];
export const exactFileFields: [Equal<Product['cover'], FileRecord | null>, Equal<Product['gallery'], FileRecord[]>] = [
  true,
  true,
];
