/** The groups of targets measured over HTTP, each against a peer, and a check that every target answers 2xx. */
import type { Group, Target } from './load.js';
import type { Seeded } from './seed.js';
import { wanted } from './settings.js';
import type { RunningProcess } from './support.js';

/** The header of a compact JWT, or undefined if it is not one. */
function jwtHeader(token: unknown): { alg?: string; typ?: string } | undefined {
  if (typeof token !== 'string' || token.split('.').length !== 3) return undefined;
  try {
    return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { alg?: string };
  } catch {
    return undefined;
  }
}

/** Sends one request of a target and throws unless it answers 2xx (and, for token targets, an ES256 JWT). */
export async function check(target: Target, expectJwt = false): Promise<void> {
  const res = await fetch(target.url, {
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body ?? target.bodies?.[0],
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${target.name}: ${res.status} ${text.slice(0, 500)}`);
  if (expectJwt) {
    const header = jwtHeader((JSON.parse(text) as { access_token?: unknown }).access_token);
    if (header?.alg !== 'ES256')
      throw new Error(`${target.name}: not an ES256 JWT access token: ${text.slice(0, 500)}`);
  }
}

export interface Peers {
  bare: RunningProcess;
  oidc: RunningProcess;
  oidcClient: { id: string; secret: string };
}

/**
 * The mixed load's request set-up: a random one of `ids`, read, and every tenth request a rename of it instead (the
 * one set-up is shared by all connections, so exactly one in ten).
 */
function mixedLoad(ids: number[]) {
  let sent = 0;
  return <R extends object>(request: R): R => {
    const id = ids[Math.floor(Math.random() * ids.length)];
    const path = `/products/${id}`;
    if (++sent % 10 !== 0) return { ...request, method: 'GET', path };
    const headers = {
      ...(request as { headers?: Record<string, string> }).headers,
      'Content-Type': 'application/json',
    };
    const body = JSON.stringify({ name: `Mixed ${id}, write ${sent / 10}` });
    return { ...request, method: 'PATCH', path, headers, body };
  };
}

/**
 * The groups to measure on `service`: for `kept`, the service as `npm start` runs it (answers kept while the data stays
 * the same), each against the bare NestJS route; for `anew`, one started with READ_CACHE_BYTES=0, whose every answer
 * is made anew as after a write, each against `floor`, which answers the same bytes with the least work (see
 * bench/peers/read-floor.ts).
 */
export function groupsFor(
  service: RunningProcess,
  peers: Peers,
  token: string,
  seeded: Seeded,
  phase: 'kept' | 'anew',
  floor?: RunningProcess,
): Group[] {
  const bearer = { Authorization: `Bearer ${token}` };
  const bare: Target = { name: 'bare NestJS GET /bare', pid: peers.bare.pid, url: `${peers.bare.url}/bare` };
  /** One of our routes against the bare NestJS route, round after round. */
  const againstBare = (name: string, route: string, us: Target): Group => ({
    name,
    targets: [us, bare],
    pairs: [{ route, us: us.name, peer: bare.name }],
  });
  const credentials = seeded.integrations.map((integration) => ({
    grant_type: 'client_credentials',
    client_id: integration.access_key_id,
    client_secret: integration.secret_access_key,
  }));
  const tokenJson: Target = {
    name: 'us POST /api/oauth/token (JSON)',
    pid: service.pid,
    url: `${service.url}/api/oauth/token`,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    bodies: credentials.map((body) => JSON.stringify(body)),
  };
  const tokenForm: Target = {
    ...tokenJson,
    name: 'us POST /api/oauth/token (form)',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    bodies: credentials.map((body) => new URLSearchParams(body).toString()),
  };
  const oidc: Target = {
    name: 'oidc-provider POST /token (form)',
    pid: peers.oidc.pid,
    url: `${peers.oidc.url}/token`,
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: peers.oidcClient.id,
      client_secret: peers.oidcClient.secret,
    }).toString(),
  };
  const read = (name: string, path: string, headers: Record<string, string> = bearer): Target => ({
    name: `us GET ${name}`,
    pid: service.pid,
    url: `${service.url}${path}`,
    headers,
  });
  const product = read('/products/:id (11 files)', `/products/${seeded.productId}`);
  const products = read('/products?limit=50 (each with a cover)', '/products?limit=50');
  if (phase === 'anew') {
    if (!floor) throw new Error('reads made anew are measured against the read floor');
    /** One of our reads made anew against the floor's answer of the same bytes. */
    const againstFloor = (name: string, route: string, ours: Target): Group => {
      const us: Target = { ...ours, name: `${ours.name}, made anew` };
      const path = ours.url.slice(service.url.length);
      const peer: Target = {
        name: ours.name.replace(/^us /, 'read floor '),
        pid: floor.pid,
        url: `${floor.url}${path}`,
      };
      return { name, targets: [us, peer], pairs: [{ route, us: us.name, peer: peer.name }], sameAnswer: [us, peer] };
    };
    return [
      againstFloor('product-anew', 'GET /products/:id, 11 files, made anew', product),
      againstFloor('products-anew', 'GET /products?limit=50, each with a cover, made anew', products),
    ].filter((group) => wanted(group.name));
  }
  const mixed: Target = {
    ...read(
      `/products/:id 90 %, PATCH 10 %, over ${seeded.mixedIds.length.toLocaleString('en-US')} products`,
      `/products/${seeded.mixedIds[0]}`,
    ),
    setup: mixedLoad(seeded.mixedIds),
  };
  const jwks = read('/.well-known/jwks.json', '/.well-known/jwks.json', {});
  const metadata = read('/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server', {});
  const groups: Group[] = [
    {
      name: 'token',
      targets: [tokenJson, oidc, bare, tokenForm],
      pairs: [
        { route: 'token, client_credentials (JSON) vs oidc-provider', us: tokenJson.name, peer: oidc.name },
        { route: 'token, client_credentials (JSON) vs bare NestJS', us: tokenJson.name, peer: bare.name },
        { route: 'token, client_credentials (form) vs oidc-provider', us: tokenForm.name, peer: oidc.name },
      ],
    },
    againstBare('product', 'GET /products/:id, 11 files, kept', product),
    againstBare('products', 'GET /products?limit=50, each with a cover, kept', products),
    againstBare('jwks', 'GET /.well-known/jwks.json', jwks),
    againstBare('metadata', 'GET /.well-known/oauth-authorization-server', metadata),
    // Last: its writes change the data the groups before it read.
    againstBare(
      'mixed',
      `mixed: 90 % GET /products/:id, 10 % PATCH, ${seeded.mixedIds.length.toLocaleString('en-US')} products`,
      mixed,
    ),
  ];
  return groups.filter((group) => wanted(group.name));
}
