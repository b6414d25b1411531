/** Who made a request, as proven by its access token. */
export interface Principal {
  /** `integration:<id>` or `user:<id>`. */
  subject: string;
  clientId: string;
  scopes: string[];
  /** A user's token: the sign-in (refresh-token family) it belongs to. */
  signInId?: string;
}

/** The service itself, acting from the command line or at first start: it holds every permission. */
export const SYSTEM_PRINCIPAL: Principal = Object.freeze({ subject: 'system', clientId: 'system', scopes: ['*'] });

declare module 'express-serve-static-core' {
  interface Request {
    user?: Principal;
  }
}
