/** An error answered in a format of its own instead of problem details. */
interface FormattedError {
  status: number;
  headers: Record<string, string>;
  body: object;
}

/** Renders the errors of one path, or leaves an error to problem details by returning undefined. */
export type ErrorFormat = (exception: unknown) => FormattedError | undefined;

const formats = new Map<string, ErrorFormat>();

/**
 * Paths whose errors a feature answers in its own format (the token endpoint: RFC 6749). Keyed by path rather than
 * by route, because errors raised before routing (a body the parser refuses) must be rendered the same way; the
 * feature that owns the path registers it, so the problem details filter knows no feature.
 */
export const errorFormats = {
  register(path: string, format: ErrorFormat): void {
    formats.set(path, format);
  },
  for(path: string): ErrorFormat | undefined {
    return formats.get(path);
  },
};
