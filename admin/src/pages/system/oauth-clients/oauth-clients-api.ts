import type { Schemas } from '../../../api/client';

/** An application, with its scope ceiling (`scopes`) and what a request without `scope` gets (`default_scopes`). */
export type OAuthClient = Schemas['OAuthClient'];
export type NewOAuthClient = Schemas['CreateOAuthClient'];
export type OAuthClientChange = Schemas['UpdateOAuthClient'];

/** The query key of every page of the list, invalidated after each change. */
export const OAUTH_CLIENTS_KEY = ['oauth-clients'];
