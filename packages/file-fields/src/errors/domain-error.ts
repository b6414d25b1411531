/**
 * Base of every error a module throws on purpose. The problem details filter turns it into an
 * RFC 9457 response with this status, a `type` of `/problems/<code>` (or its registered type), and the message as
 * `detail`.
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  abstract readonly title: string;
  /**
   * A problem type registered elsewhere (an RFC's or a draft's, in IANA's registry) that `type` names instead of
   * `/problems/<code>`, so that clients of that specification recognise it.
   */
  readonly registeredType?: string;
  /** Extra members of the problem document (RFC 9457 extensions). */
  readonly extensions: Record<string, unknown> = {};
  /** Extra response headers, e.g. Retry-After or WWW-Authenticate. */
  readonly headers: Record<string, string> = {};

  constructor(detail: string) {
    super(detail);
    this.name = new.target.name;
  }
}
