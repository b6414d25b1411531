import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

/**
 * The client's address as express determined it (X-Forwarded-For only from TRUST_PROXY proxies), with an IPv4 client
 * of a dual-stack listener (`::ffff:192.0.2.1`) written as IPv4, so that one client is one key whichever way the
 * service listens. Undefined when the socket is already gone.
 */
export function clientAddress(request: Request): string | undefined {
  const address = request.ip;
  if (!address || !ipaddr.isValid(address)) return address;
  return ipaddr.process(address).toString();
}
