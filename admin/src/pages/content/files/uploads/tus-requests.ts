import type { DetailedError, HttpRequest, HttpResponse } from 'tus-js-client';
import type { TokenSource } from '../../../../api/client';
import { ApiError, retryAfterSeconds, type ProblemBody } from '../../../../api/problems';

/** What tus-js-client asks before retrying: its own judgement is `next`. */
type ShouldRetry = (
  error: DetailedError,
  attempt: number,
  options: unknown,
  next: (e: DetailedError) => boolean,
) => boolean;

/**
 * The request hooks of one queue's tus uploads. Every request gets the session's current token in the Authorization
 * header (a token refreshed mid-upload goes on with the same upload); a request refused with 401 is retried once the
 * token is renewed. A HEAD, which tus-js-client sends only to resume, reports the offset the service holds.
 */
export function tusRequestHooks(
  tokens: TokenSource,
  onResuming: (fileId: string, offset: number, total: number) => void,
) {
  const fileOf = new WeakMap<HttpRequest, string>();
  // By file: the token a 401 refused, renewed before that file's next request.
  const refused = new Map<string, string>();

  const onBeforeRequest = async (request: HttpRequest, file: { id: string }) => {
    fileOf.set(request, file.id);
    const rejected = refused.get(file.id);
    refused.delete(file.id);
    const token = rejected ? await tokens.renewAfterRejection(rejected) : await tokens.accessToken();
    if (token) request.setHeader('Authorization', `Bearer ${token}`);
  };

  /** Notes the token a 401 refused, to renew it before the file's next request; false when there is none. */
  const noteRefused = (request: HttpRequest | null | undefined) => {
    const token = /^Bearer (.+)$/.exec(request?.getHeader('Authorization') ?? '')?.[1];
    const fileId = request ? fileOf.get(request) : undefined;
    if (!token || fileId === undefined) return false;
    refused.set(fileId, token);
    return true;
  };

  const onAfterResponse = (request: HttpRequest, response: HttpResponse) => {
    if (request.getMethod() !== 'HEAD') return;
    // tus-js-client takes a HEAD's 4xx for a lost upload and starts the file over: a refused token is not that. The
    // throw makes it an error, which onShouldRetry retries with the renewed token.
    if (response.getStatus() === 401 && noteRefused(request)) throw new Error('The access token was refused.');
    const fileId = fileOf.get(request);
    const offset = integerHeader(response, 'Upload-Offset');
    const total = integerHeader(response, 'Upload-Length');
    if (response.getStatus() !== 200 || fileId === undefined || offset === undefined || total === undefined) return;
    onResuming(fileId, offset, total);
  };

  const onShouldRetry: ShouldRetry = (error, _attempt, _options, next) => {
    const request = error.originalRequest;
    const status = error.originalResponse?.getStatus();
    if (status === 401) return noteRefused(request);
    // A HEAD whose 401 onAfterResponse noted.
    if (status === undefined && request && refused.has(fileOf.get(request) ?? '')) return true;
    // Ending an upload (Cancel) is judged here: @uppy/tus's own judgement queues the retry in a slot of its request
    // queue that is never given back once the upload is gone, which would stop every later upload of the field.
    if (request?.getMethod() === 'DELETE') return status === 423 || !status || status >= 500;
    // Only an offset that moved meanwhile is worth another try; a full multi field stays full.
    if (status === 409 && problemOf(error.originalResponse)?.type?.endsWith('/upload-offset-mismatch') !== true) {
      return false;
    }
    return next(error);
  };

  return { onBeforeRequest, onAfterResponse, onShouldRetry };
}

/**
 * The ApiError of a failed upload, from the service's last answer (its problem details) or, without an answer, the
 * network's. Uppy wraps network failures in an error whose `cause` is tus-js-client's.
 */
export function uploadError(error: unknown): ApiError {
  const detailed = [error, (error as { cause?: unknown } | undefined)?.cause].find(isDetailed);
  const response = detailed?.originalResponse;
  const status = response?.getStatus() ?? 0;
  if (!response || status === 0) return new ApiError(0, undefined);
  if (status < 400) {
    return new ApiError(status, {
      title: 'The upload failed',
      detail: 'The service gave an answer tus does not expect.',
    });
  }
  return new ApiError(status, problemOf(response), retryAfterSeconds(response.getHeader('Retry-After') ?? null));
}

const isDetailed = (error: unknown): error is DetailedError =>
  error instanceof Error && 'originalResponse' in error && 'originalRequest' in error;

function problemOf(response: HttpResponse | null | undefined): (ProblemBody & { type?: string }) | undefined {
  try {
    const body: unknown = JSON.parse(response?.getBody() ?? '');
    return typeof body === 'object' && body !== null ? body : undefined;
  } catch {
    return undefined;
  }
}

function integerHeader(response: HttpResponse, name: string): number | undefined {
  const value = response.getHeader(name);
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

const RETRYABLE = new Set([0, 408, 423, 429]);

/** Whether another try of a failed upload may succeed (the network, a busy or failing service), unlike a refusal. */
export const mayRetry = (error: ApiError) => RETRYABLE.has(error.status) || error.status >= 500;
