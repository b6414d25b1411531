import { STATUS_CODES } from 'node:http';
import type { DomainError } from './domain-error.js';

/** An RFC 9457 problem details document. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  [extension: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The problem type of a code: a relative URI documented in docs/api.md (Errors); generic HTTP errors use about:blank. */
function problemType(code?: string): string {
  return code ? `/problems/${code}` : 'about:blank';
}

export function problem(status: number, detail: string, code?: string, title?: string): ProblemDocument {
  return { type: problemType(code), title: title ?? STATUS_CODES[status] ?? 'Error', status, detail };
}

/** The problem document and response headers of an error thrown on purpose. */
export function problemOf(error: DomainError): { body: ProblemDocument; headers: Record<string, string> } {
  const body = {
    ...problem(error.status, error.message, error.code, error.title),
    ...(error.registeredType ? { type: error.registeredType } : {}),
    ...error.extensions,
  };
  return { body, headers: error.headers };
}
