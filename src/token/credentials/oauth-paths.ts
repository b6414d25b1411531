/*
 * Where the OAuth endpoints live: the controllers route them, the metadata document names them, the error formats
 * and the administration interface's redirect depend on them.
 */

export const OAUTH_TOKEN_PATH = '/api/oauth/token';
export const OAUTH_REVOCATION_PATH = '/api/oauth/revoke';
export const OAUTH_AUTHORIZE_PATH = '/api/oauth/authorize';
export const JWKS_PATH = '/.well-known/jwks.json';
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

/** Where the administration interface receives its authorization code: a page of its own, under the issuer. */
export const ADMIN_REDIRECT_PATH = '/admin/callback';
