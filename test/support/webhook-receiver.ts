import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  raw: string;
  /** When it arrived (epoch ms), and what the receiver answered. */
  at: number;
  reply: Reply;
  body: { id: string; event: string; created_at: string; timestamp: number; data: Record<string, unknown> };
}

/** How the receiver answers one request: a status code, or `hang` to never answer. */
export type Reply = number | 'hang';

/** A real HTTP receiver on 127.0.0.1 that records what it gets and answers from a script (then 200). */
export interface TestReceiver {
  url: string;
  received: ReceivedWebhook[];
  replies: Reply[];
  /** Decides the answer to a request from what it holds, before `replies` (undefined: as `replies` say). */
  answer?: (hook: Omit<ReceivedWebhook, 'reply'>) => Reply | undefined;
  /** The most requests that were open at the same time. */
  maxConcurrent(): number;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<TestReceiver> {
  const received: ReceivedWebhook[] = [];
  const replies: Reply[] = [];
  const hanging: ServerResponse[] = [];
  let open = 0;
  let peak = 0;
  const server = createServer((req, res) => {
    peak = Math.max(peak, ++open);
    res.on('close', () => open--);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const hook = { headers: req.headers, raw, at: Date.now(), body: JSON.parse(raw) as ReceivedWebhook['body'] };
      const reply = receiver.answer?.(hook) ?? replies.shift() ?? 200;
      received.push({ ...hook, reply });
      if (reply === 'hang') return void hanging.push(res);
      res.writeHead(reply, { 'Content-Type': 'text/plain' }).end(`answered ${reply}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const receiver: TestReceiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    replies,
    maxConcurrent: () => peak,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (received.length < count) throw new Error(`Expected ${count} webhooks, got ${received.length}`);
      return received;
    },
    async close() {
      hanging.forEach((res) => res.destroy());
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}
