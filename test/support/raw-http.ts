import { request, type ClientRequest, type IncomingHttpHeaders } from 'node:http';

/** A 1xx the server sent before its final answer. */
export interface Interim {
  status: number;
  headers: Record<string, string>;
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The 1xx answers before it, in order (node:http shows them; fetch and supertest do not). */
  interim: Interim[];
  json: () => Record<string, unknown>;
}

/**
 * One request over node:http: `body` is sent whole, or `drive` writes it (and may break the connection off; the
 * promise then rejects unless the server answered first).
 */
export function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: Buffer | ((req: ClientRequest) => void),
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const interim: Interim[] = [];
    const req = request(url, { method, headers });
    req.on('information', (info) => {
      const named: Record<string, string> = {};
      for (let i = 0; i < info.rawHeaders.length; i += 2)
        named[info.rawHeaders[i].toLowerCase()] = info.rawHeaders[i + 1];
      interim.push({ status: info.statusCode, headers: named });
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const data = Buffer.concat(chunks);
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: data,
          interim,
          json: () => JSON.parse(data.toString('utf8')) as Record<string, unknown>,
        });
      });
    });
    if (typeof body === 'function') body(req);
    else req.end(body);
  });
}
