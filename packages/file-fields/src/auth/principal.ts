/**
 * Who makes a request: what the host's authentication sets on `req.user` (a passport strategy, a guard of its own).
 * The package reads nothing else of it.
 */
export interface Principal {
  /** Who it is, as the host names callers (`user:<id>`, `integration:<id>`). */
  subject: string;
  /** What it may do: permissions `<type>:read`, `<type>:write`, or `*` for all. */
  scopes: string[];
  /** The application it called through, where the host knows one: recorded with each file activity. */
  clientId?: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    user?: Principal;
  }
}
