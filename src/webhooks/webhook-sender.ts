import { Inject, Injectable } from '@nestjs/common';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { publicOnlyLookup } from './ssrf-guard.js';
import { webhooksConfig, type WebhooksConfig } from './webhooks.config.js';

export interface SendResult {
  statusCode?: number;
  error?: string;
  timedOut?: boolean;
  retryAfter?: string;
  /** The first 2 KiB of the response body. */
  body?: string;
  durationMs: number;
}

/** What a receiver answered, before the attempt's duration is known. */
type Answer = Pick<SendResult, 'statusCode' | 'retryAfter' | 'body'>;

const BODY_LIMIT = 2048;
const ERROR_LIMIT = 500;
export const USER_AGENT = 'file-fields-service-webhooks/1';

/** An attempt ran past WEBHOOK_TIMEOUT, counted from before the connection to the end of the response head. */
export class WebhookDeadlineError extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(readonly timeoutMs: number) {
    super(`No complete answer within ${timeoutMs} ms`);
    this.name = 'WebhookDeadlineError';
  }
}

/**
 * POSTs one signed body; never follows redirects; refuses non-public destinations unless configured otherwise.
 * WEBHOOK_TIMEOUT is a hard deadline for the whole attempt, so a receiver that drips bytes cannot hold an attempt
 * (and its lease) open, and whatever a receiver does ends up as a result: `send` never rejects.
 */
@Injectable()
export class WebhookSender {
  constructor(@Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig) {}

  async send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = Date.now();
    const { allowPrivateNetworks, timeoutMs } = this.config;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new WebhookDeadlineError(timeoutMs)), timeoutMs);
    try {
      // The race settles at the deadline even if the socket never reports anything after being destroyed.
      const answer = await Promise.race([
        exchange(url, body, headers, { signal: deadline.signal, allowPrivateNetworks }),
        rejectOnAbort(deadline.signal),
      ]);
      return { ...answer, durationMs: Date.now() - started };
    } catch (error) {
      // Once the deadline has passed, whatever the torn-down socket reported is a consequence of the timeout.
      const cause: unknown = deadline.signal.aborted ? deadline.signal.reason : error;
      return { ...failure(cause), durationMs: Date.now() - started };
    } finally {
      clearTimeout(timer);
    }
  }
}

interface ExchangeOptions {
  /** Aborting it destroys the request and, once there is one, the response. */
  signal: AbortSignal;
  allowPrivateNetworks: boolean;
}

/** One request and the head of its response; rejects on any error of either, and never leaves an error unheard. */
function exchange(url: string, body: string, headers: Record<string, string>, options: ExchangeOptions) {
  return new Promise<Answer>((resolve, reject) => {
    const target = new URL(url);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body), 'User-Agent': USER_AGENT },
        signal: options.signal,
        ...(options.allowPrivateNetworks ? {} : { lookup: publicOnlyLookup }),
      },
      (res) => {
        // Kept for the response's whole life: an error after the head was read must not become an uncaught one.
        res.on('error', reject);
        readHead(res).then(
          (text) => resolve({ statusCode: res.statusCode, retryAfter: headerOf(res, 'retry-after'), body: text }),
          reject,
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) =>
    signal.addEventListener('abort', () => reject(asError(signal.reason)), { once: true }),
  );
}

function failure(cause: unknown): Pick<SendResult, 'error' | 'timedOut'> {
  const error = asError(cause) as NodeJS.ErrnoException;
  return {
    error: `${error.code ?? 'ERROR'}: ${error.message}`.slice(0, ERROR_LIMIT),
    timedOut: error instanceof WebhookDeadlineError,
  };
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

function headerOf(res: IncomingMessage, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads at most 2 KiB of the answer; leaving the loop early destroys the response rather than waiting for the rest. */
async function readHead(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    chunks.push(chunk.subarray(0, BODY_LIMIT - length));
    length += chunk.length;
    if (length >= BODY_LIMIT) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}
