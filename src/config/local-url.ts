import { createServer, isIPv6 } from 'node:net';

/** 0.0.0.0, or an IPv6 address of zeros only (`::`, `::0`): every address, which no client can open. */
function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || (isIPv6(host) && /^[0:]+$/.test(host));
}

/**
 * The service's URL at HOST and PORT as a browser on the same machine opens it: what it logs and, with OAUTH_ISSUER
 * unset, its issuer and the base of the file URLs it hands out. A wildcard HOST listens on loopback too, so it names
 * 127.0.0.1 (also what a container's published port is opened at); clients on other machines need OAUTH_ISSUER.
 */
export function localUrl(host: string, port: number): string {
  const name = isWildcard(host) ? '127.0.0.1' : host;
  return `http://${isIPv6(name) ? `[${name}]` : name}:${port}`;
}

/** A port free on `host` now, for PORT=0 to be resolved before anything is built on the port. */
export async function freePortOn(host: string): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
