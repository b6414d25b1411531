import { Injectable } from '@nestjs/common';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AppConfig } from '../config/environment.js';
import { publicOnlyLookup } from './ssrf-guard.js';

export interface SendResult {
  statusCode?: number;
  error?: string;
  timedOut?: boolean;
  retryAfter?: string;
  /** The first 2 KiB of the response body. */
  body?: string;
  durationMs: number;
}

const BODY_LIMIT = 2048;
export const USER_AGENT = 'file-fields-service-webhooks/1';

/** POSTs one signed body; never follows redirects; refuses non-public destinations unless configured otherwise. */
@Injectable()
export class WebhookSender {
  constructor(private readonly config: AppConfig) {}

  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = Date.now();
    const target = new URL(url);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const { allowPrivateNetworks, timeoutMs } = this.config.webhooks;
    return new Promise((resolve) => {
      const done = (result: Omit<SendResult, 'durationMs'>) => resolve({ ...result, durationMs: Date.now() - started });
      const req = request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Length': Buffer.byteLength(body), 'User-Agent': USER_AGENT },
          timeout: timeoutMs,
          ...(allowPrivateNetworks ? {} : { lookup: publicOnlyLookup }),
        },
        (res) =>
          void readHead(res).then((text) =>
            done({ statusCode: res.statusCode, retryAfter: headerOf(res, 'retry-after'), body: text }),
          ),
      );
      req.setTimeout(timeoutMs, () =>
        req.destroy(Object.assign(new Error(`No answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
      );
      req.on('error', (error: NodeJS.ErrnoException) =>
        done({
          error: `${error.code ?? 'ERROR'}: ${error.message}`.slice(0, 500),
          timedOut: error.code === 'ETIMEDOUT',
        }),
      );
      req.end(body);
    });
  }
}

function headerOf(res: IncomingMessage, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads at most 2 KiB of the answer and discards the rest. */
async function readHead(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    if (length < BODY_LIMIT) chunks.push(chunk.subarray(0, BODY_LIMIT - length));
    length += chunk.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}
