import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * IPv4-compatible IPv6 addresses (`::a.b.c.d`, ::/96): deprecated (RFC 4291 §2.5.5.1) and never a public
 * destination, yet some stacks still reach the embedded IPv4 address, which ipaddr.js calls `unicast` whatever it is.
 */
function isIPv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0);
}

/** Whether an address is on the public internet (not loopback, private, link-local, multicast, reserved...). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const ipv6 = parsed as ipaddr.IPv6;
    if (isIPv4Compatible(ipv6)) return false;
    if (ipv6.isIPv4MappedAddress()) parsed = ipv6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses non-public destinations at connect time, so a name that resolved to a
 * public address at registration cannot be re-pointed at an internal one later (DNS rebinding).
 */
export function publicOnlyLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) {
      const blocked = Object.assign(new Error(`Refused non-public address ${refused.address} for ${hostname}`), {
        code: 'EBLOCKED',
      });
      return callback(blocked, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}
