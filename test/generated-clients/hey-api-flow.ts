/*
 * The README's flow as an integration writes it with the SDK @hey-api/openapi-ts generates from openapi.json (its
 * fetch client, types and one function per operation). test/generated-clients.e2e-spec.ts generates the SDK next to
 * a copy of this file, type-checks it strictly and runs it: it must need no cast.
 */
import { createClient } from './generated/hey-api/client/index.js';
import {
  createProduct,
  downloadFile,
  getProduct,
  getToken,
  uploadProductCover,
  uploadProductGallery,
  type FileRecord,
  type Product,
  type TokenRequest,
} from './generated/hey-api/index.js';
import * as sdk from './generated/hey-api/sdk.gen.js';

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

/**
 * A token by client credentials, a product, a cover and two gallery images uploaded, the product read back with its
 * file fields, and the cover's bytes downloaded.
 */
export async function readmeFlow(baseUrl: string, credentials: Credentials, images: [Blob, Blob]): Promise<FlowResult> {
  const anonymous = createClient({ baseUrl });
  const { data: token } = await getToken({
    client: anonymous,
    throwOnError: true,
    body: {
      grant_type: 'client_credentials',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    },
  });
  // The SDK sends the token where each operation's security says (a bearer token here).
  const client = createClient({ baseUrl, auth: token.access_token });
  const { data: product } = await createProduct({ client, throwOnError: true, body: { name: 'Made by hey-api' } });
  const path = { attachmentId: product.id };

  // A single field takes one file and answers one record.
  const { data: cover } = await uploadProductCover({ client, throwOnError: true, path, body: { file: images[0] } });
  // A multi field takes several; one part answers its record, several an array.
  const { data: added } = await uploadProductGallery({ client, throwOnError: true, path, body: { file: images } });
  const appended: FileRecord[] = Array.isArray(added) ? added : [added];

  const { data: read } = await getProduct({ client, throwOnError: true, path: { id: product.id } });
  const { data: download } = await downloadFile({ client, throwOnError: true, path: { id: cover.id } });
  return { productId: read.id, uploaded: [cover, ...appended], cover: read.cover, gallery: read.gallery, download };
}

/** Calls the document rules out: each must fail to type-check (an unused @ts-expect-error fails the check). */
export function refusedCalls(image: Blob): void {
  const path = { attachmentId: 1 };
  // @ts-expect-error: an article has no gallery
  void sdk.uploadArticleGallery;
  // @ts-expect-error: a cover is one file
  void uploadProductCover({ path, body: { file: [image] } });
  // @ts-expect-error: the password grant needs a username
  const signIn: TokenRequest = { grant_type: 'password', client_id: 'administration', password: 'x' };
  // @ts-expect-error: the refresh grant needs the refresh token
  const refresh: TokenRequest = { grant_type: 'refresh_token', client_id: 'administration' };
  void [signIn, refresh];
}

/** The exact types of the product's file fields: `cover` is `FileRecord | null`, `gallery` `FileRecord[]`. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const exactFileFields: [Equal<Product['cover'], FileRecord | null>, Equal<Product['gallery'], FileRecord[]>] = [
  true,
  true,
];
