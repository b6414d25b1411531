import type { Schemas } from '../../../api/client';

export type OAuthClient = Schemas['OAuthClient'];

/** The query key of every page of the list, invalidated after each change. */
export const OAUTH_CLIENTS_KEY = ['oauth-clients'];
