import { DomainError } from './domain-error.js';

/** Status, title and, for errors worth retrying, the Retry-After in seconds. */
type CatalogEntry = readonly [status: number, title: string, retryAfterSeconds?: number];

/**
 * Every code of a module with its answer. A `Record` over the code enum, so adding a code without a status and a
 * title does not compile.
 */
export type ErrorCatalog<Code extends string> = Readonly<Record<Code, CatalogEntry>>;

/**
 * An error of a module whose codes are listed in one catalog: the code alone decides status, title and Retry-After,
 * so two places can never answer the same code differently.
 */
export abstract class CatalogedError<Code extends string> extends DomainError {
  readonly status: number;
  readonly title: string;

  protected constructor(
    catalog: ErrorCatalog<Code>,
    readonly code: Code,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(detail);
    // Only an explicit cause is kept, as Error itself does: `{ cause: undefined }` still records that there was none.
    if (options && 'cause' in options) this.cause = options.cause;
    const [status, title, retryAfter] = catalog[code];
    [this.status, this.title] = [status, title];
    if (retryAfter !== undefined) this.headers['Retry-After'] = String(retryAfter);
  }
}
