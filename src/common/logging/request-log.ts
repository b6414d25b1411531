import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { symbols, type Level, type Logger } from 'pino';
import {
  isSaneRequestId,
  requestLine,
  requestLineJson,
  type LoggedRequest,
  type RequestLineFields,
} from './log-lines.js';

/** The request being handled, for the lines written while it is (see AppLogger): the request itself, no logger. */
const currentRequest = new AsyncLocalStorage<IncomingMessage>();

/** The request whose handling is under way here, if any. */
export function requestInProgress(): IncomingMessage | undefined {
  return currentRequest.getStore();
}

const PROBLEM_TYPE = Symbol('problem type');

/** Notes the `type` of the problem document a response answers, for the request's one log line. */
export function noteProblemType(res: object, type: string): void {
  (res as { [PROBLEM_TYPE]?: string })[PROBLEM_TYPE] = type;
}

type TrackedRequest = IncomingMessage & LoggedRequest & { id?: string };

/**
 * One line per request, written once its response is done (or the connection dropped): method, URL, status,
 * duration, the request id, the principal once the access guard knew it, the problem type of an error answer. The
 * level follows the status: error from 500 or when the response failed, warn from 400, info below.
 *
 * The request id comes from X-Request-Id when sane, else a new UUID; it is echoed back and kept as `req.id` (the
 * audit trail records it). The request's lines carry it through `currentRequest`, which holds the request alone:
 * the request is serialized only when a line is written, not once per request into a child logger.
 */
export class RequestLog {
  /** Where a line written by hand goes (pino's destination), when lines are JSON and not detailed. */
  private readonly byHand?: { write(line: string): unknown };
  private readonly bindings: string;

  /** `json`: whether the logger writes JSON lines (not pretty ones), which the request line may then write itself. */
  constructor(
    private readonly logger: Logger,
    json = false,
  ) {
    const l = logger as unknown as Record<symbol, unknown>;
    this.bindings = l[symbols.chindingsSym] as string;
    if (json && !logger.isLevelEnabled('debug')) this.byHand = l[symbols.streamSym] as { write(line: string): unknown };
  }

  /** Gives the request its id and arranges its line. */
  begin(req: IncomingMessage, res: ServerResponse): void {
    const given = req.headers['x-request-id'];
    const id = isSaneRequestId(given) ? given : randomUUID();
    (req as TrackedRequest).id = id;
    res.setHeader('X-Request-Id', id);
    const started = Date.now();
    let written = false;
    const done = (error?: Error) => {
      if (written) {
        // A failure after the line (a write after the end): said on a line of its own rather than lost.
        if (error) this.logger.error({ req, err: error }, 'The response failed after it was logged');
        return;
      }
      written = true;
      this.write(req, res, Date.now() - started, error);
    };
    res.once('close', done);
    // Also keeps an 'error' on the response (a write after its end) from ending the process.
    res.on('error', done);
  }

  /** Runs `next` as the handling of `req`: lines written meanwhile, even after an await, name it. */
  within(req: IncomingMessage, next: () => void): void {
    currentRequest.run(req, next);
  }

  private write(req: TrackedRequest, res: ServerResponse, responseTime: number, error: Error | undefined): void {
    const level: Level = error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: RequestLineFields = { responseTime };
    const subject = req.user?.subject;
    if (subject !== undefined) fields.principal = subject;
    const problem = (res as { [PROBLEM_TYPE]?: string })[PROBLEM_TYPE];
    if (problem !== undefined) fields.problem = problem;
    if (this.byHand && !error) {
      this.byHand.write(requestLineJson(this.logger.levels.values[level], this.bindings, req, res, fields));
      return;
    }
    this.logger[level]({ req, res, ...(error ? { err: error } : {}), ...fields }, requestLine(req, res, responseTime));
  }
}
