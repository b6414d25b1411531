import type { Principal as RequestPrincipal } from '@file-fields/nest';

/** Who made a request, as proven by its access token: the caller the file fields know, with its client and sign-in. */
export interface Principal extends RequestPrincipal {
  /** `integration:<id>` or `user:<id>`. */
  subject: string;
  clientId: string;
  /** A user's token: the sign-in (refresh-token family) it belongs to. */
  signInId?: string;
}

/** The service itself, acting from the command line or at first start: it holds every permission. */
export const SYSTEM_PRINCIPAL: Principal = Object.freeze({ subject: 'system', clientId: 'system', scopes: ['*'] });
