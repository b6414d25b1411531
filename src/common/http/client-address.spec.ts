import type { Request } from 'express';
import { clientAddress } from './client-address.js';

const from = (ip: string | undefined) => clientAddress({ ip } as Request);

describe('clientAddress', () => {
  it('writes an IPv4 client of a dual-stack listener as IPv4', () => {
    expect(from('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(from('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('keeps IPv4 and IPv6 addresses, the latter in their canonical short form', () => {
    expect(from('192.0.2.7')).toBe('192.0.2.7');
    expect(from('2001:db8:0:0:0:0:0:1')).toBe('2001:db8::1');
  });

  it('passes on what is not an address, and nothing', () => {
    expect(from(undefined)).toBeUndefined();
    expect(from('unknown')).toBe('unknown');
  });
});
