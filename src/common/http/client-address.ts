import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * The client's address as express determined it (X-Forwarded-For only from TRUST_PROXY proxies), with an IPv4 client
 * of a dual-stack listener (`::ffff:192.0.2.1`) written as IPv4 and IPv6 in its canonical short form, so that one
 * client is one key whichever way the service listens. Undefined when the socket is already gone.
 */
export function clientAddress(request: Request): string | undefined {
  const address = request.ip;
  if (!address?.includes(':')) return address;
  const mapped = IPV4_MAPPED.exec(address);
  if (mapped) return mapped[1];
  return ipaddr.IPv6.isValid(address) ? ipaddr.IPv6.parse(address).toString() : address;
}
