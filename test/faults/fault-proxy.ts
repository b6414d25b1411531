import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, createServer as createTcpServer, type Socket } from 'node:net';

/*
 * Proxies placed between the service and one of its dependencies, so that a test can stop a write at a chosen step
 * (hold the request or statement that makes it), answer it with errors, or cut the dependency off, without touching
 * the dependency itself: the PostgreSQL server is this machine's, shared with other suites.
 */

/** A step held open: `reached` resolves once a matching request or statement arrived; `release` lets it through. */
export interface Hold {
  reached: Promise<void>;
  release(): void;
}

function newHold(): Hold & { arrive(): void; released: Promise<void> } {
  let arrive!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return { reached, arrive, released, release };
}

async function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/**
 * A TCP proxy to PostgreSQL. Statements travel as text in the client's messages (Parse or Query), so a statement is
 * matched on the bytes of the chunk that carries it: once one matches a hold, nothing more of that connection goes
 * through until the hold is released (the statement, and the commit after it, wait; the server sees an idle client).
 */
export class TcpFaultProxy {
  private readonly server = createTcpServer((client) => this.accept(client));
  private readonly sockets = new Set<Socket>();
  private readonly holds: Array<{ match: (text: string) => boolean; hold: ReturnType<typeof newHold> }> = [];
  private refusing = false;
  /** When the dependency was cut off, and back (epoch ms). */
  private readonly outages: Array<{ from: number; to: number }> = [];
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    this.port = await listen(this.server);
    return this;
  }

  /** Holds the first statement whose text matches (once). */
  hold(match: (text: string) => boolean): Hold {
    const hold = newHold();
    this.holds.push({ match, hold });
    return hold;
  }

  /** The dependency goes away: every open connection is cut, and new ones are closed as soon as they open. */
  cut(): void {
    if (!this.refusing) this.outages.push({ from: Date.now(), to: Infinity });
    this.refusing = true;
    for (const socket of this.sockets) socket.destroy();
  }

  /** The dependency is back. */
  restore(): void {
    this.refusing = false;
    const last = this.outages.at(-1);
    if (last) last.to = Date.now();
  }

  /** Whether the dependency was cut off at `time` (epoch ms), or `beforeMs` before it went. */
  wasCutOffAt(time: number, beforeMs = 0): boolean {
    return this.outages.some(({ from, to }) => time >= from - beforeMs && time <= to);
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.refusing) return void client.destroy();
    const upstream = connect(this.targetPort, this.targetHost);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      // Either side gone ends the other: a killed instance's transaction is rolled back by the server, as it would be.
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.pipe(client);
    let held: Promise<void> | undefined;
    const pending: Buffer[] = [];
    client.on('data', (chunk: Buffer) => {
      if (held) return void pending.push(chunk);
      const text = chunk.toString('latin1');
      const index = this.holds.findIndex((rule) => rule.match(text));
      if (index < 0) return void upstream.write(chunk);
      const [{ hold }] = this.holds.splice(index, 1);
      pending.push(chunk);
      held = hold.released;
      hold.arrive();
      void hold.released.then(() => {
        for (const piece of pending.splice(0)) upstream.write(piece);
        held = undefined;
      });
    });
  }
}

/** One request to the storage, as the proxy saw it. */
export interface SeenRequest {
  method: string;
  url: string;
}

type RequestMatch = (request: SeenRequest) => boolean;

/**
 * An HTTP proxy to an S3-protocol server. It can hold a matching request (its body is not read: the sender's bytes
 * back up behind it), answer matching requests with an S3 error, and it keeps which multipart uploads were started and
 * not completed or aborted (a server such as fauxqs cannot list them).
 */
export class HttpFaultProxy {
  private readonly server = createHttpServer((req, res) => void this.handle(req, res));
  private readonly holds: Array<{ match: RequestMatch; hold: ReturnType<typeof newHold> }> = [];
  private failing?: { match: RequestMatch; status: number; code: string };
  /** Every request seen, in order. */
  readonly seen: SeenRequest[] = [];
  /** Multipart uploads started and neither completed nor aborted, by upload id: their key. */
  readonly openMultipartUploads = new Map<string, string>();
  port = 0;

  constructor(private readonly target: URL) {}

  async start(): Promise<this> {
    this.port = await listen(this.server);
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Holds the first request that matches (once), until released; a held request whose sender is gone is dropped. */
  hold(match: RequestMatch): Hold {
    const hold = newHold();
    this.holds.push({ match, hold });
    return hold;
  }

  /** Answers every matching request with `status` and an S3 error document of `code`, until `heal`. */
  fail(match: RequestMatch, status = 503, code = 'ServiceUnavailable'): void {
    this.failing = { match, status, code };
  }

  heal(): void {
    this.failing = undefined;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const seen = { method: req.method ?? 'GET', url: req.url ?? '/' };
    this.seen.push(seen);
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    if (this.failing?.match(seen)) {
      const { status, code } = this.failing;
      req.resume();
      res.writeHead(status, { 'Content-Type': 'application/xml' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>injected</Message></Error>`);
      return;
    }
    const index = this.holds.findIndex((rule) => rule.match(seen));
    if (index >= 0) {
      const [{ hold }] = this.holds.splice(index, 1);
      hold.arrive();
      const gone = new Promise<boolean>((resolve) => res.once('close', () => resolve(true)));
      if (await Promise.race([hold.released.then(() => false), gone])) return;
    }
    // This server already answered a 100-continue: the body comes, whatever the storage would say.
    const headers = { ...req.headers };
    delete headers.expect;
    const upstream = httpRequest(new URL(seen.url, this.target), { method: seen.method, headers });
    upstream.on('error', () => res.destroy());
    // The sender gone (killed mid-request) ends the request to the storage too, as a broken connection would.
    res.once('close', () => upstream.destroy());
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => {
        if (chunks.length < 64) chunks.push(chunk);
        res.write(chunk);
      });
      answer.on('end', () => {
        res.end();
        this.noteMultipart(seen, answer.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'));
      });
    });
    req.pipe(upstream);
  }

  private noteMultipart({ method, url }: SeenRequest, status: number, body: string): void {
    if (status < 200 || status >= 300) return;
    const parsed = new URL(url, this.target);
    const uploadId = parsed.searchParams.get('uploadId');
    if (method === 'POST' && parsed.searchParams.has('uploads')) {
      const started = /<UploadId>([^<]+)<\/UploadId>/.exec(body)?.[1];
      if (started) this.openMultipartUploads.set(started, decodeURIComponent(parsed.pathname));
    } else if (uploadId && (method === 'DELETE' || (method === 'POST' && !/<Error>/.test(body)))) {
      this.openMultipartUploads.delete(uploadId);
    }
  }
}

/** S3 requests by what they do (path-style: `/<bucket>/<key>?...`). */
export const s3 = {
  uploadPart: ({ method, url }: SeenRequest) => method === 'PUT' && /[?&]partNumber=/.test(url),
  complete: ({ method, url }: SeenRequest) => method === 'POST' && /[?&]uploadId=/.test(url),
  putObject: (keyPart: RegExp) => (request: SeenRequest) =>
    request.method === 'PUT' && !/[?&](partNumber|uploadId)=/.test(request.url) && keyPart.test(request.url),
  any: () => true,
};
