/** Who made a request, as proven by its access token. */
export interface Principal {
  /** `integration:<id>` or `user:<id>`. */
  subject: string;
  clientId: string;
  scopes: string[];
}

declare module 'express-serve-static-core' {
  interface Request {
    user?: Principal;
  }
}
