/**
 * Types that can run script in a browser or on a machine: refused unless a field names them exactly. XML is among
 * them because an XML document may hold XHTML or SVG elements, which a browser renders and runs.
 */
export const REFUSED_BY_DEFAULT: readonly string[] = [
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'application/xml',
  'text/xml',
  'application/x-msdownload',
  'application/x-executable',
  'application/x-elf',
  'application/x-mach-binary',
  'application/x-sharedlib',
  'application/vnd.microsoft.portable-executable',
];

/** Whether a sniffed MIME type may be stored in a field with these `accept` rules. */
export function isAccepted(mimeType: string, accept?: readonly string[]): boolean {
  const type = mimeType.toLowerCase();
  if (REFUSED_BY_DEFAULT.includes(type)) return accept?.includes(type) ?? false;
  if (!accept || accept.length === 0) return true;
  return accept.some((pattern) => matches(pattern, type));
}

function matches(pattern: string, type: string): boolean {
  if (pattern === '*/*' || pattern === type) return true;
  return pattern.endsWith('/*') && type.startsWith(pattern.slice(0, -1));
}
