import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import { DatabaseUnavailableError, isDatabaseUnavailable } from '../../database/database-unavailable.js';
import { redactUrl } from '../logging/log-lines.js';
import { noteProblemType } from '../logging/request-log.js';
import { DomainError, problem, problemOf, PROBLEM_CONTENT_TYPE, type ProblemDocument } from '@file-fields/nest';
import { errorFormats } from './error-formats.js';

interface Rendered {
  body: ProblemDocument;
  headers: Record<string, string>;
}

/**
 * Turns every error into an RFC 9457 problem details response, except on paths a feature registered a format of its
 * own for (see errorFormats). Domain errors keep their status and code;
 * Nest's HTTP exceptions keep their status; anything else is a 500 whose body carries only an error id
 * that is also in the log, never a stack trace or an internal message.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    if (response.headersSent) {
      response.destroy();
      return;
    }
    // Answered before its body was read (refused, or a body no route reads): closing the connection spares reading
    // the rest at the client's pace.
    if (!request.complete && hasBody(request)) response.setHeader('Connection', 'close');
    exception = unstorableTextAsClientError(exception);
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn({ err: exception }, 'Database unavailable');
      exception = new DatabaseUnavailableError({ cause: exception });
    }
    const formatted = errorFormats.for(request.path)?.(exception);
    if (formatted) {
      response.status(formatted.status).set(formatted.headers).json(formatted.body);
      return;
    }
    const { body, headers } = this.render(exception, request);
    body.instance ??= request.originalUrl?.split('?')[0];
    noteProblemType(response, body.type);
    response.status(body.status).set(headers).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
  }

  private render(exception: unknown, request: Request): Rendered {
    if (exception instanceof DomainError) return problemOf(exception);
    if (exception instanceof HttpException) {
      return { body: problem(exception.getStatus(), httpDetail(exception)), headers: {} };
    }
    const clientError = bodyParserError(exception);
    if (clientError) return { body: clientError, headers: {} };
    const errorId = randomUUID();
    this.logger.error(
      { err: exception, errorId, method: request.method, url: redactUrl(request.originalUrl ?? '') },
      'Unhandled error',
    );
    return {
      body: { ...problem(500, `An unexpected error occurred; quote error id ${errorId}.`), error_id: errorId },
      headers: {},
    };
  }
}

function httpDetail(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

function hasBody(request: Request): boolean {
  return request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
}

/** PostgreSQL's "character not in repertoire" and "untranslatable character": U+0000, which text cannot hold. */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/**
 * Text PostgreSQL cannot store is the client's input, a 400 (in body-parser's shape, so that every format renders it
 * as one); requests are checked for U+0000 before they get here, this is in case one slips through.
 */
function unstorableTextAsClientError(exception: unknown): unknown {
  if (!(exception instanceof QueryFailedError)) return exception;
  const code = (exception.driverError as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !UNSTORABLE_TEXT.has(code)) return exception;
  const message = 'The request holds a character the database cannot store (such as U+0000).';
  return Object.assign(new Error(message), { status: 400, expose: true });
}

/** Errors raised by body parsers (malformed JSON, body too large) carry a client status of their own. */
function bodyParserError(exception: unknown): ProblemDocument | undefined {
  const candidate = exception as { status?: unknown; type?: unknown; expose?: unknown; message?: unknown };
  if (typeof candidate?.status !== 'number' || candidate.status < 400 || candidate.status >= 500) return undefined;
  if (candidate.expose !== true) return undefined;
  return problem(candidate.status, typeof candidate.message === 'string' ? candidate.message : 'Bad request');
}
