import { authorizationQuery, CHALLENGE, SHOP } from '../../../testing/authorization-fakes.js';
import { AuthorizationPageError, AuthorizationRedirectError } from './authorization-request.js';
import { parseAuthorizationRequest } from './request-checks.js';

const parse = (query: Record<string, unknown>) =>
  parseAuthorizationRequest(query, (clientId) => (clientId === SHOP.clientId ? SHOP : undefined));

/** The error a request is answered with, as the client (or the page) would see it. */
function refusal(query: Record<string, unknown>): { page?: string; redirect?: string; state?: string } {
  try {
    parse(query);
  } catch (error) {
    if (error instanceof AuthorizationPageError) return { page: error.message };
    if (error instanceof AuthorizationRedirectError) return { redirect: error.error, state: error.state };
    throw error;
  }
  throw new Error('The request was accepted');
}

describe('the authorization request checks', () => {
  it('accepts a request naming a known client, its redirect URI, code and an S256 challenge', () => {
    expect(parse(authorizationQuery({ scope: ' product:read ' }))).toEqual({
      client: SHOP,
      redirectUri: SHOP.redirectUris[0],
      scope: 'product:read',
      state: 'xyz',
      codeChallenge: CHALLENGE,
    });
  });

  describe('the client and its redirect URI: until both are known good, errors are a page', () => {
    it('refuses a missing, repeated or unknown client', () => {
      expect(refusal(authorizationQuery({ client_id: undefined })).page).toMatch(/names no client/);
      expect(refusal(authorizationQuery({ client_id: [SHOP.clientId, 'x'] })).page).toMatch(/names no client/);
      expect(refusal(authorizationQuery({ client_id: 'app_unknown' })).page).toMatch(/unknown client/);
    });

    it('compares the redirect URI by exact string', () => {
      for (const uri of [
        undefined,
        'https://shop.example/cb/',
        'https://SHOP.example/cb',
        'https://shop.example/cb?next=x',
        'https://www.shop.example/cb',
        'http://shop.example/cb',
        'https://evil.example/cb',
      ]) {
        expect(refusal(authorizationQuery({ redirect_uri: uri })).page).toMatch(/not one registered for Shop/);
      }
    });

    it('shows a page even when the rest is wrong too: nothing goes to an unchecked URI', () => {
      expect(refusal({ client_id: SHOP.clientId, redirect_uri: 'https://evil.example/cb' })).toHaveProperty('page');
    });
  });

  describe('after: errors go back to the client, with its state', () => {
    it('refuses another response type, or none', () => {
      expect(refusal(authorizationQuery({ response_type: 'token' }))).toEqual({
        redirect: 'unsupported_response_type',
        state: 'xyz',
      });
      expect(refusal(authorizationQuery({ response_type: undefined })).redirect).toBe('invalid_request');
    });

    it('requires PKCE with S256 and a well-formed challenge', () => {
      expect(refusal(authorizationQuery({ code_challenge: undefined })).redirect).toBe('invalid_request');
      expect(refusal(authorizationQuery({ code_challenge_method: 'plain' })).redirect).toBe('invalid_request');
      expect(refusal(authorizationQuery({ code_challenge_method: undefined })).redirect).toBe('invalid_request');
      expect(refusal(authorizationQuery({ code_challenge: 'short' })).redirect).toBe('invalid_request');
    });

    it('refuses a scope naming what is not a permission', () => {
      expect(refusal(authorizationQuery({ scope: 'product:read <script>' })).redirect).toBe('invalid_scope');
      expect(refusal(authorizationQuery({ scope: 'x'.repeat(2001) })).redirect).toBe('invalid_scope');
    });

    it('refuses a repeated parameter', () => {
      expect(refusal(authorizationQuery({ scope: ['product:read', 'product:write'] })).redirect).toBe(
        'invalid_request',
      );
    });

    it('never sends back an over-long state, and refuses it first', () => {
      const long = 's'.repeat(1001);
      expect(refusal(authorizationQuery({ state: long, response_type: 'token' }))).toEqual({
        redirect: 'invalid_request',
        state: undefined,
      });
      expect(refusal(authorizationQuery({ state: long, scope: ['product:read', 'product:write'] }))).toEqual({
        redirect: 'invalid_request',
        state: undefined,
      });
      expect(parse(authorizationQuery({ state: 's'.repeat(1000) })).state).toHaveLength(1000);
    });

    it('sends back a state of exactly 1000 characters with the refusal of another parameter', () => {
      const state = 's'.repeat(1000);
      expect(refusal(authorizationQuery({ state, scope: ['product:read', 'product:write'] }))).toEqual({
        redirect: 'invalid_request',
        state,
      });
    });
  });
});
