import { Inject, Injectable } from '@nestjs/common';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { publicOnlyLookup } from './ssrf-guard.js';
import { webhooksConfig, type WebhooksConfig } from '../webhooks.config.js';

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
const USER_AGENT = 'file-fields-service-webhooks/1';

/** An attempt ran past WEBHOOK_TIMEOUT, counted from before the connection to the end of the response head. */
class WebhookDeadlineError extends Error {
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
    try {
      const answer = await exchange(url, body, headers, this.config);
      return { ...answer, durationMs: Date.now() - started };
    } catch (error) {
      return { ...failure(error), durationMs: Date.now() - started };
    }
  }
}

/**
 * One request and the head of its response. Rejects on any error of either, and at the deadline, which tears both
 * down (whatever the torn-down socket reports afterwards is heard and ignored: the promise has settled).
 */
function exchange(
  url: string,
  body: string,
  headers: Record<string, string>,
  { timeoutMs, allowPrivateNetworks }: Pick<WebhooksConfig, 'timeoutMs' | 'allowPrivateNetworks'>,
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const target = new URL(url);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body), 'User-Agent': USER_AGENT },
        ...(allowPrivateNetworks ? {} : { lookup: publicOnlyLookup }),
      },
      (res) => {
        res.on('error', fail);
        readHead(res, (text) => {
          clearTimeout(deadline);
          resolve({ statusCode: res.statusCode, retryAfter: headerOf(res, 'retry-after'), body: text });
        });
      },
    );
    const deadline = setTimeout(() => fail(new WebhookDeadlineError(timeoutMs)), timeoutMs);
    function fail(error: Error) {
      clearTimeout(deadline);
      reject(error);
      req.destroy(error);
    }
    req.on('error', fail);
    req.end(body);
  });
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

/**
 * Reads at most 2 KiB of the answer and hands them to `done`; once it has them, the response is destroyed rather than
 * waited for to the end.
 */
function readHead(res: IncomingMessage, done: (text: string) => void): void {
  const chunks: Buffer[] = [];
  let length = 0;
  const finish = () => done(Buffer.concat(chunks).toString('utf8'));
  res.on('data', (chunk: Buffer) => {
    if (length >= BODY_LIMIT) return;
    chunks.push(chunk.subarray(0, BODY_LIMIT - length));
    length += chunk.length;
    if (length < BODY_LIMIT) return;
    finish();
    res.destroy();
  });
  res.on('end', finish);
}
