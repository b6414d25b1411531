import { connect } from 'node:net';

/** One request as bytes on the wire: node:http and fetch refuse the hostile header values the fuzz sends. */
export interface WireRequest {
  method: string;
  /** Path and query, already encoded (or deliberately not). */
  target: string;
  /** In order; a name may repeat. Values are sent as UTF-8 bytes. */
  headers: Array<[string, string]>;
  body?: Buffer;
}

export interface WireResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * Sends `request` on a connection of its own (closed after the answer) and reads the final answer, skipping 1xx ones.
 * Rejects when no answer came within `timeoutMs` or the connection ended without one.
 */
export function send(port: number, request: WireRequest, timeoutMs: number): Promise<WireResponse> {
  const body = request.body ?? Buffer.alloc(0);
  const lines = [`${request.method} ${request.target} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  if (body.length > 0 || ['POST', 'PUT', 'PATCH'].includes(request.method))
    lines.push(`Content-Length: ${body.length}`);
  lines.push('Connection: close', '', '');
  const head = Buffer.from(lines.join('\r\n'), 'utf8');

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      try {
        resolve(parse(Buffer.concat(chunks), request.method === 'HEAD'));
      } catch (parseError) {
        reject(error ?? (parseError as Error));
      }
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may answer and close before reading the whole body (a refusal): the answer counts.
    socket.on('error', (error) => finish(error));
    socket.on('end', () => finish());
    socket.write(Buffer.concat([head, body]));
  });
}

function parse(data: Buffer, head: boolean): WireResponse {
  let rest = data;
  for (let answers = 0; answers < 10; answers++) {
    const end = rest.indexOf(HEADER_END);
    if (end < 0) throw new Error(`the connection ended without a complete answer (${data.length} bytes)`);
    const [statusLine, ...headerLines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    if (!status) throw new Error(`not an HTTP answer: ${statusLine.slice(0, 80)}`);
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    rest = rest.subarray(end + HEADER_END.length);
    if (status >= 100 && status < 200) continue;
    if (head || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) return { status, headers, body: dechunk(rest) };
    const length = headers['content-length'] === undefined ? rest.length : Number(headers['content-length']);
    return { status, headers, body: rest.subarray(0, length) };
  }
  throw new Error('more than 10 interim answers');
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
