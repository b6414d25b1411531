/**
 * What the measured routes read, created through the service's own API: integrations, 50 products with a cover, one
 * product with 1 + 10 files, and the 1,000 products of the mixed load.
 */
import { settings, wanted } from './settings.js';
import { call, cpuTimeMs, sleep, uploadPngs, type RunningProcess } from './support.js';

/** What {@link seed} created. */
export interface Seeded {
  integrations: Array<{ access_key_id: string; secret_access_key: string }>;
  /** The product with 1 + 10 files. */
  productId: number;
  /** The mixed load's products (empty unless that group runs). */
  mixedIds: number[];
}

/**
 * Creates what the routes read: integrations, 50 products with a cover, and one product with 1 + 10 files. One
 * integration per connection: the token endpoint counts a request against its client's failure limit (10 per address)
 * until it has succeeded, so one client with more requests in flight than that from one address is told to slow down.
 */
export async function seed(service: RunningProcess, token: string): Promise<Seeded> {
  const { url } = service;
  await call(`${url}/api/roles`, 'POST', token, {
    name: 'bench-reader',
    permissions: ['product:read', 'article:read'],
  });
  const integrations: Array<{ access_key_id: string; secret_access_key: string }> = [];
  for (let i = 0; wanted('token') && i < settings.connections; i++) {
    integrations.push(
      await call(`${url}/api/integrations`, 'POST', token, { label: `bench ${i}`, role: 'bench-reader' }),
    );
  }
  // Listed by id ascending: the 50 products with a cover come first, the one with 11 files after them.
  for (let i = 0; i < 50; i++) {
    const product = await call<{ id: number }>(`${url}/products`, 'POST', token, { name: `Product ${i}` });
    await uploadPngs(url, token, `/files/product/${product.id}/cover`, 1);
  }
  const product = await call<{ id: number }>(`${url}/products`, 'POST', token, { name: 'Eleven files' });
  await uploadPngs(url, token, `/files/product/${product.id}/cover`, 1);
  await uploadPngs(url, token, `/files/product/${product.id}/gallery`, 10);
  const read = await call<Record<string, unknown>>(`${url}/products/${product.id}`, 'GET', token);
  const gallery = read.gallery;
  if (!Array.isArray(gallery) || gallery.length !== 10) {
    throw new Error(`the product does not show 10 gallery files: ${JSON.stringify(read).slice(0, 500)}`);
  }
  const started = Date.now();
  await settle(service, token);
  process.stderr.write(`  background work of the uploads done after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  const mixedIds = wanted('mixed') ? await seedMixed(url, token) : [];
  return { integrations, productId: product.id, mixedIds };
}

/** The number of products the mixed load reads and writes. */
export const MIXED_PRODUCTS = 1_000;

/** Creates the mixed load's products (no files), a few requests at a time; returns their ids. */
async function seedMixed(url: string, token: string): Promise<number[]> {
  const ids: number[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < MIXED_PRODUCTS; i = next++) {
      ids.push((await call<{ id: number }>(`${url}/products`, 'POST', token, { name: `Mixed ${i}` })).id);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  // One write as the load sends it, so that a refused write fails here and not as 10 % of the load.
  await call(`${url}/products/${ids[0]}`, 'PATCH', token, { name: 'Mixed 0, renamed' });
  return ids;
}

/**
 * Waits until the uploads' background work is done, so that no round pays for it: every image variant made (a
 * response shows `null` for a variant still being made), then the service's CPU quiet (under 5 % for half a second).
 */
export async function settle(service: RunningProcess, token: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  type File = { variants?: Record<string, unknown> };
  const pending = async () => {
    const page = await call<{ items: Array<{ cover?: File; gallery?: File[] }> }>(
      `${service.url}/products?limit=100`,
      'GET',
      token,
    );
    const files = page.items.flatMap((item) => [item.cover ?? {}, ...(item.gallery ?? [])]);
    return files.some((file) => Object.values(file.variants ?? {}).includes(null));
  };
  while (await pending()) {
    if (Date.now() > deadline) throw new Error('image variants still pending after 120 s');
    await sleep(250);
  }
  for (let before = await cpuTimeMs(service.pid); Date.now() < deadline;) {
    await sleep(500);
    const after = await cpuTimeMs(service.pid);
    if (before === undefined || after === undefined || after - before < 25) return;
    before = after;
  }
}
