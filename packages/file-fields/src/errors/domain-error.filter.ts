import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError } from './domain-error.js';
import { PROBLEM_CONTENT_TYPE, problemOf } from './problem-details.js';

/**
 * Answers the package's errors (every {@link DomainError}: a 404 for a file that does not exist, a 413 for one too
 * large, a 400 listing each invalid field) with their status as RFC 9457 problem details, for an application that has
 * no filter of its own for them: `app.useGlobalFilters(new DomainErrorFilter())`. Other errors go on to Nest's own.
 */
@Catch(DomainError)
export class DomainErrorFilter implements ExceptionFilter<DomainError> {
  catch(error: DomainError, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const { body, headers } = problemOf(error);
    body.instance ??= http.getRequest<Request>().originalUrl.split('?')[0];
    response.status(body.status).set(headers).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
  }
}
