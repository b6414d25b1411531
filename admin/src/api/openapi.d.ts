export interface paths {
    "/api/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Changes made through the administration API and sign-ins, newest first */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Obtain an access token (OAuth 2.0)
         * @description client_credentials for integrations (HTTP Basic or client_secret_post, JSON or form); authorization_code with PKCE and refresh_token for the administration interface (client_id "administration") and registered applications (a public one by its client_id, a confidential one with its secret); unless OAUTH_PASSWORD_GRANT=off, password (client_id "administration"). A refresh token works only for the client it was issued to. Access tokens are ES256 JWTs valid for one hour. Errors are RFC 6749 bodies.
         */
        post: operations["getToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a refresh token, ending its sign-in (OAuth 2.0 Token Revocation, RFC 7009)
         * @description The client authenticates as at the token endpoint (client_id "administration" or a public application without a secret; a confidential application's or an integration's credentials). A refresh token issued to that client ends its whole sign-in: every refresh token of the rotation chain and the access tokens issued under it. Any other token (an access token, an unknown, expired or revoked one, another client's) is answered the same, with nothing changed. Errors are RFC 6749 bodies.
         */
        post: operations["revokeToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The public keys that verify access tokens (RFC 7517) */
        get: operations["getJwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization server metadata (RFC 8414) */
        get: operations["getAuthorizationServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start signing in: the authorization code flow with PKCE (OAuth 2.1)
         * @description A browser opens this URL; the service's own sign-in page answers (no script, framing refused). An unknown client or a redirect URI not registered for it, compared by exact string, gets an error page, never a redirect. Once the client and redirect URI are good, other errors go back there as `error`, `error_description`, `state` and `iss` (RFC 6749 §4.1.2.1, RFC 9207): invalid_request (a missing or `plain` PKCE challenge, a repeated parameter, a state over 1000 characters, which is not echoed), unsupported_response_type, invalid_scope, access_denied (cancelled or denied).
         */
        get: operations["authorize"];
        put?: never;
        /**
         * The sign-in form of the authorization endpoint
         * @description Posted by the sign-in page and by the consent page. A right username and password redirect to the client with `code`, `state` and `iss`, at once for the administration interface or an application the person already allowed what it asks; otherwise the consent page answers (Allow sends the code, Deny access_denied). The code works once, within 60 seconds, for the PKCE verifier, client and redirect URI of the request. Failed sign-ins count against the same limits as the password grant. Once the client and redirect URI are good, other errors go back there as `error`, `error_description`, `state` and `iss` (RFC 6749 §4.1.2.1, RFC 9207): invalid_request (a missing or `plain` PKCE challenge, a repeated parameter, a state over 1000 characters, which is not echoed), unsupported_response_type, invalid_scope, access_denied (cancelled or denied).
         */
        post: operations["authorizeSignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the integrations (never their secrets): a page, searched, sorted */
        get: operations["listIntegrations"];
        put?: never;
        /** Create an integration; the answer holds its secret, shown only this once */
        post: operations["createIntegration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one integration */
        get: operations["getIntegration"];
        put?: never;
        post?: never;
        /** Delete an integration; its tokens stop working at once */
        delete: operations["deleteIntegration"];
        options?: never;
        head?: never;
        /** Change label, role, active, expires_at or owner (inactive: its tokens stop working at once) */
        patch: operations["updateIntegration"];
        trace?: never;
    };
    "/api/integrations/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Issue a new secret; the old one keeps working for SECRET_ROTATION_GRACE (a day by default) */
        post: operations["rotateIntegrationSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/{id}/previous-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End a rotation's grace period now: the previous secret stops working at once */
        delete: operations["expirePreviousIntegrationSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the registered OAuth clients (never their secrets): a page, searched, sorted */
        get: operations["listOAuthClients"];
        put?: never;
        /**
         * Register an application; the answer holds the secret of a confidential one, shown only this once
         * @description `scopes` is its ceiling: each a permission of `GET /api/permissions` that the caller holds (`*` only by a holder of `*`). A name that could pass for the administration interface is a 400.
         */
        post: operations["createOAuthClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/clients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one registered OAuth client */
        get: operations["getOAuthClient"];
        put?: never;
        post?: never;
        /**
         * Delete a registered OAuth client, signing out everyone signed in through it
         * @description Takes every permission of its ceiling (`scopes`); the consents people gave it are forgotten.
         */
        delete: operations["deleteOAuthClient"];
        options?: never;
        head?: never;
        /**
         * Change the name, the redirect URIs or the scopes of a client
         * @description Takes every permission of its ceiling (`scopes`), and of the new one.
         */
        patch: operations["updateOAuthClient"];
        trace?: never;
    };
    "/api/oauth/clients/{id}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a new secret to a confidential client, shown only this once
         * @description The previous secret keeps working for SECRET_ROTATION_GRACE (a day by default) (`previous_secret_expires_at`), so concurrent rotations each hand out a working secret. Takes every permission of the client’s ceiling. Sign-ins made at the client stay: its access tokens run until they expire, and its refresh tokens are refreshed with the new secret.
         */
        post: operations["rotateOAuthClientSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/clients/{id}/previous-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End a rotation's grace period now: the previous secret stops working at once */
        delete: operations["expirePreviousOAuthClientSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the roles and their permissions: a page, searched, sorted */
        get: operations["listRoles"];
        put?: never;
        /** Create a role: a name and its permissions */
        post: operations["createRole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/roles/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one role */
        get: operations["getRole"];
        put?: never;
        post?: never;
        /** Delete a role (409 while a user or an integration has it) */
        delete: operations["deleteRole"];
        options?: never;
        head?: never;
        /** Rename a role or replace its permissions (tokens of its holders narrow at once) */
        patch: operations["updateRole"];
        trace?: never;
    };
    "/api/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the users of the administration interface: a page, searched, sorted */
        get: operations["listUsers"];
        put?: never;
        /** Create a user of the administration interface */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one user */
        get: operations["getUser"];
        put?: never;
        post?: never;
        /** Delete a user; its tokens stop working at once */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /** Change a user's role or password (a new password ends its tokens at once) */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/api/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the permissions a role may hold: `*` and each one the service checks
         * @description Read from the routes and the attachable entity types when the service starts, sorted by name after `*`. Any valid token may read it.
         */
        get: operations["listPermissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the caller is: the user or integration of the token, its role, and what the token grants */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change the signed-in user’s own password, proving the current one
         * @description For users only: an integration, which has no password, gets 403 `/problems/not-a-user`. Ends every other sign-in of the user (its refresh and access tokens) at once; the sign-in whose token made the change stays. A wrong current password is 400 `/problems/wrong-password` and counts against the sign-in failure limits.
         */
        put: operations["changeOwnPassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The applications the signed-in user allowed, with the permissions allowed to each
         * @description Any valid token may read it; only people give consent, so an integration’s list is always empty. The administration interface needs no consent and is never listed. A token issued to a registered application lists only the grant to that application, not what the person allowed others.
         */
        get: operations["listMyGrants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/grants/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Withdraw a consent given to an application */
        delete: operations["revokeMyGrant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/webhook-keys.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public keys that verify `v1a` (Ed25519) webhook signatures, as a JWK Set (RFC 7517)
         * @description Upcoming, signing and recently retired keys; each delivery names its key in `webhook-key-id`. A new key is published here WEBHOOK_SIGNING_KEY_PREPUBLISH before it signs.
         */
        get: operations["getWebhookKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/signing-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The published `v1a` signing keys and their state */
        get: operations["listWebhookSigningKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/signing-keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a `v1a` signing key: published now, signing from WEBHOOK_SIGNING_KEY_PREPUBLISH on
         * @description The key signing now retires when the new one starts, and stays published until every attempt it signed has ended. `npm run cli -- rotate-webhook-signing-key` does the same.
         */
        post: operations["rotateWebhookSigningKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the webhook endpoints with their health (never their secrets): a page, searched, sorted */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register an endpoint; the answer holds its signing secret, shown only here and on rotation
         * @description The endpoint receives only the events the caller may read: one about an attachment type needs `<type>:read` (webhook.endpoint.disabled needs `webhook:write`) in this token, or it is not queued for the endpoint, and in the role of the user or integration that registered it when it is sent, or it is skipped.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The event kinds, each with a description and the JSON Schema of its data
         * @description The OpenAPI document describes each kind's whole delivery body as a component schema (`WebhookEvent_<event>`, e.g. `WebhookEvent_file.created`), and `WebhookEvent` as their union told apart by `event`, the body of the `webhookEvent` callback of `createWebhook`: generate receivers' types from those.
         */
        get: operations["listWebhookEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one webhook endpoint */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /** Delete an endpoint and its delivery history */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /** Change URL, events, filter, description or active */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** New signing secret, optionally in another scheme; the old one still signs too during WEBHOOK_SECRET_GRACE */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/ping": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a webhook.ping event to this endpoint (at most 10 an hour) */
        post: operations["pingWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send again every failed or skipped delivery of a time window, one attempt each, oldest first
         * @description Re-queues at most 10000 deliveries, with their event ids, sent at the endpoint's concurrency. When `remaining` > 0, call again with `since` = `next_since` (and the same `until`) once this recovery has finished: until each of its deliveries has had its attempt, another recovery of the endpoint is refused (409).
         */
        post: operations["recoverWebhookDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the deliveries to this endpoint, newest first, with their attempts */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * One new attempt now, with the same event id (also for a disabled endpoint)
         * @description Skipped instead when the endpoint's creator may no longer read the event (`last_error` says which permission it lacks).
         */
        post: operations["redeliverWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/{attachmentType}/{attachmentId}/{fieldName}/direct-uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an upload whose bytes go straight to the S3 bucket
         * @description S3 storage only. Checks the declared size, type and a multi field's room, then answers a presigned URL per part: PUT each part there (no Authorization header), keep each answer's ETag header, and POST them to `complete_url` before `expires_at` (DIRECT_UPLOAD_TTL). Needs `<attachment type>:write`.
         */
        post: operations["startDirectUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/direct-uploads/{uploadId}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a direct upload and record its file
         * @description Only the principal that started the upload, still holding `<attachment type>:write`. The stored object must have the declared size; its type is sniffed from its first bytes and the field's rules apply as to any upload. A refused object is deleted. Single field: 201 or 200 (replaced); multi field: 201 (appended). The upload can be completed once: a wrong part list (400) may be corrected, anything else ends it.
         */
        post: operations["completeDirectUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/direct-uploads/{uploadId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Cancel a direct upload and drop its parts
         * @description Only the principal that started it.
         */
        delete: operations["cancelDirectUpload"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the entity types files attach to, with each file field and its rules
         * @description Only the types whose `<attachment type>:read` the token holds. The rules are those an upload enforces, with MAX_FILE_SIZE applied: a client can check a file before it sends it.
         */
        get: operations["listAttachmentTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/article/{attachmentId}/thumbnail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload the thumbnail of an article
         * @description A single field: creates the record (201) or replaces its file, keeping the same id (200). Accepts image/*. The type is sniffed from the bytes, not taken from the part. Needs `article:write`. With `Tus-Resumable: 1.0.0` (and `Upload-Length` or `Upload-Defer-Length: 1`) the request creates a resumable upload instead (tus 1.0.0 creation, with its first bytes as `application/offset+octet-stream` if it likes): 201 without a body, `Location` naming the upload, which HEAD, PATCH and DELETE continue; the record appears when its last byte arrives, under the same rules. With `Upload-Complete` instead (the IETF resumable upload draft), it creates one too, the body being the bytes of the file or of its first part (in any `Content-Type`): `?0` answers 201 without a body, with `Location`, `Upload-Offset` and `Upload-Limit`; `?1` answers as above once the whole file arrived. A client that sends `Upload-Draft-Interop-Version: 8` is told the Location in a 104 first.
         */
        post: operations["uploadArticleThumbnail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/article/{attachmentId}/attachments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload files to the attachments of an article
         * @description A multi field: the files are appended (201). Accepts any type except HTML, SVG and executables; at most 10 files. The type is sniffed from the bytes, not taken from the part. Needs `article:write`. With `Tus-Resumable: 1.0.0` (and `Upload-Length` or `Upload-Defer-Length: 1`) the request creates a resumable upload instead (tus 1.0.0 creation, with its first bytes as `application/offset+octet-stream` if it likes): 201 without a body, `Location` naming the upload, which HEAD, PATCH and DELETE continue; the record appears when its last byte arrives, under the same rules. With `Upload-Complete` instead (the IETF resumable upload draft), it creates one too, the body being the bytes of the file or of its first part (in any `Content-Type`): `?0` answers 201 without a body, with `Location`, `Upload-Offset` and `Upload-Limit`; `?1` answers as above once the whole file arrived. A client that sends `Upload-Draft-Interop-Version: 8` is told the Location in a 104 first.
         */
        post: operations["uploadArticleAttachments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/product/{attachmentId}/cover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload the cover of a product
         * @description A single field: creates the record (201) or replaces its file, keeping the same id (200). Accepts image/*; at most 5242880 bytes a file. The type is sniffed from the bytes, not taken from the part. Needs `product:write`. With `Tus-Resumable: 1.0.0` (and `Upload-Length` or `Upload-Defer-Length: 1`) the request creates a resumable upload instead (tus 1.0.0 creation, with its first bytes as `application/offset+octet-stream` if it likes): 201 without a body, `Location` naming the upload, which HEAD, PATCH and DELETE continue; the record appears when its last byte arrives, under the same rules. With `Upload-Complete` instead (the IETF resumable upload draft), it creates one too, the body being the bytes of the file or of its first part (in any `Content-Type`): `?0` answers 201 without a body, with `Location`, `Upload-Offset` and `Upload-Limit`; `?1` answers as above once the whole file arrived. A client that sends `Upload-Draft-Interop-Version: 8` is told the Location in a 104 first.
         */
        post: operations["uploadProductCover"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/product/{attachmentId}/gallery": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload files to the gallery of a product
         * @description A multi field: the files are appended (201). Accepts image/*, application/pdf; at most 30 files. The type is sniffed from the bytes, not taken from the part. Needs `product:write`. With `Tus-Resumable: 1.0.0` (and `Upload-Length` or `Upload-Defer-Length: 1`) the request creates a resumable upload instead (tus 1.0.0 creation, with its first bytes as `application/offset+octet-stream` if it likes): 201 without a body, `Location` naming the upload, which HEAD, PATCH and DELETE continue; the record appears when its last byte arrives, under the same rules. With `Upload-Complete` instead (the IETF resumable upload draft), it creates one too, the body being the bytes of the file or of its first part (in any `Content-Type`): `?0` answers 201 without a body, with `Location`, `Upload-Offset` and `Upload-Limit`; `?1` answers as above once the whole file arrived. A client that sends `Upload-Draft-Interop-Version: 8` is told the Location in a 104 first.
         */
        post: operations["uploadProductGallery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/uploads/{uploadId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End a resumable upload and remove its bytes */
        delete: operations["terminateTusUpload"];
        /**
         * What the tus server speaks (no token needed)
         * @description tus discovery: the version, the extensions (creation,creation-with-upload,creation-defer-length,termination,expiration,checksum), the largest upload and the checksum algorithms.
         */
        options: operations["discoverTusUpload"];
        /**
         * The offset of a resumable upload, to resume from
         * @description Upload-Offset, Upload-Length (or Upload-Defer-Length), Upload-Metadata and Upload-Expires.
         */
        head: operations["getTusUploadOffset"];
        /**
         * Append bytes to a resumable upload at its offset
         * @description The body is appended at Upload-Offset, which must be the upload's. Upload-Length once, when creation deferred it. Upload-Checksum (`sha256 <base64>`) checks this body: on a mismatch it is discarded (460). The request that brings the last byte creates the file record (File-Id), as a multipart upload would: the field's type, size, image and count rules apply, a refused type ends the upload (415). With the IETF draft's headers (Upload-Complete, application/partial-upload) instead of Tus-Resumable: `Upload-Complete: ?1` ends the file, and the answer is then the file record (201, or 200 for a replaced single file) with Upload-Complete: ?1.
         */
        patch: operations["appendTusUpload"];
        trace?: never;
    };
    "/files/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one file record
         * @description Needs `<attachment type>:read` of the file's entity; without it the file is answered as missing (404).
         */
        get: operations["getFile"];
        put?: never;
        post?: never;
        /**
         * Delete a file; the rest of its field is renumbered 0..n-1
         * @description Needs `<attachment type>:write` of the file's entity: 403 with only `:read`, 404 with neither.
         */
        delete: operations["deleteFile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the bytes of a file
         * @description Needs `<attachment type>:read` of the file's entity (else 404). Streams with ETag, Last-Modified and one byte range (206); If-None-Match gives 304, a bad range 416.
         */
        get: operations["downloadFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/{id}/variants/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an image variant of a file
         * @description Needs `<attachment type>:read` of the file's entity (else 404). A variant its field declares, made now when it is missing; served like the file itself (ETag, Last-Modified, one byte range, 304).
         */
        get: operations["downloadFileVariant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/{attachmentType}/{attachmentId}/{fieldName}/order": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Reorder a multi field's files; the list must name exactly its current files
         * @description File fields:
         *
         *     | attachment type | field | kind | max files | max bytes | accepts |
         *     |---|---|---|---|---|---|
         *     | article | thumbnail | single |  |  | image/* |
         *     | article | attachments | multi | 10 |  | any type except HTML, SVG and executables |
         *     | product | cover | single |  | 5242880 | image/* |
         *     | product | gallery | multi | 30 |  | image/*, application/pdf |
         */
        put: operations["reorderFiles"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/{id}/signed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the bytes of a file through its signed URL, without a token
         * @description The `url` of a file record, for `<img src>`, links and caches that cannot send a token: no Authorization, the signature is the credential. Answers like `downloadFile` (ETag, 304, one byte range, 416) with `Cache-Control: private, max-age=<seconds until the URL expires>`. An expired URL, or one that was altered or names bytes the file no longer has (replaced or deleted since), is 403.
         */
        get: operations["downloadSignedFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List products with their files: a page, searched by name, in id order or another */
        get: operations["listProducts"];
        put?: never;
        /** Create a product */
        post: operations["createProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one product with its files */
        get: operations["getProduct"];
        put?: never;
        post?: never;
        /** Delete a product and its files */
        delete: operations["deleteProduct"];
        options?: never;
        head?: never;
        /** Update a product; omitted properties keep their value */
        patch: operations["updateProduct"];
        trace?: never;
    };
    "/articles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List articles with their files: a page, searched by title, in id order or another */
        get: operations["listArticles"];
        put?: never;
        /** Create an article */
        post: operations["createArticle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/articles/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one article with its files */
        get: operations["getArticle"];
        put?: never;
        post?: never;
        /** Delete an article and its files */
        delete: operations["deleteArticle"];
        options?: never;
        head?: never;
        /** Update an article; omitted properties keep their value */
        patch: operations["updateArticle"];
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 200 when the database is reachable and the file storage can be written to, 503 otherwise
         * @description The storage check writes and removes a small probe, so a full or read-only disk is reported down.
         */
        get: operations["checkHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description RFC 9457 problem details (application/problem+json) */
        ProblemDetails: {
            /**
             * @description A URI reference naming the problem: `/problems/<code>` (listed in docs/api.md, Errors), a type registered with IANA (`https://iana.org/assignments/http-problem-types#…`, the IETF resumable upload draft), or about:blank
             * @example /problems/not-found
             */
            type: string;
            /** @example Not Found */
            title: string;
            /** @example 404 */
            status: number;
            /**
             * @description What went wrong with this request, for a person
             * @example No product 7
             */
            detail: string;
            /**
             * @description The path of the request
             * @example /products/7
             */
            instance?: string;
            /**
             * @description 403: the permission the token lacks
             * @example product:write
             */
            required_permission?: string;
            /** @description A grant of more than the caller holds: what it lacks */
            missing_permissions?: string[];
            /** @description 500: quote it to the operator; the log holds the same id */
            error_id?: string;
        };
        FieldViolation: {
            /**
             * @description Property path, e.g. `name` or `ids.2`
             * @example name
             */
            field: string;
            /**
             * @example [
             *       "name is required"
             *     ]
             */
            messages: string[];
        };
        ValidationProblemDetails: {
            /**
             * @description A URI reference naming the problem: `/problems/<code>` (listed in docs/api.md, Errors), a type registered with IANA (`https://iana.org/assignments/http-problem-types#…`, the IETF resumable upload draft), or about:blank
             * @example /problems/not-found
             */
            type: string;
            /** @example Not Found */
            title: string;
            /** @example 404 */
            status: number;
            /**
             * @description What went wrong with this request, for a person
             * @example No product 7
             */
            detail: string;
            /**
             * @description The path of the request
             * @example /products/7
             */
            instance?: string;
            /**
             * @description 403: the permission the token lacks
             * @example product:write
             */
            required_permission?: string;
            /** @description A grant of more than the caller holds: what it lacks */
            missing_permissions?: string[];
            /** @description 500: quote it to the operator; the log holds the same id */
            error_id?: string;
            /** @description Every offending field (validation-failed; a refusal of one field, such as unsafe-webhook-url, names it here too) */
            errors?: components["schemas"]["FieldViolation"][];
        };
        AuditEvent: {
            /** @example 41 */
            id: number;
            /** Format: date-time */
            occurred_at: string;
            /**
             * @description The subject (`user:<id>`, `integration:<id>`), `anonymous` for a failed sign-in, `cli` for the command line
             * @example user:1
             */
            actor: string;
            /** @example administration */
            client_id: string | null;
            /** @example integration.update */
            action: string;
            /** @example integration */
            target_type: string | null;
            /** @example 3 */
            target_id: string | null;
            /**
             * @description `denied`: refused with 403
             * @example success
             * @enum {string}
             */
            outcome: "success" | "denied" | "failure";
            /** @description The X-Request-Id of the request */
            request_id: string | null;
            /** @example 203.0.113.7 */
            source_ip: string | null;
            /**
             * @description Names of the fields changed, the problem of a refusal, the reason of a failed sign-in
             * @example {
             *       "fields": [
             *         "label",
             *         "role"
             *       ]
             *     }
             */
            details: {
                [key: string]: unknown;
            } | null;
        };
        AuditEventPage: {
            items: components["schemas"]["AuditEvent"][];
            /**
             * @description Events matching the filter, over all pages
             * @example 1
             */
            total: number;
            /** @example 20 */
            limit: number;
            /** @example 0 */
            offset: number;
        };
        /** @description The administration interface or a registered application exchanges the code of a sign-in for tokens (PKCE, RFC 7636) */
        AuthorizationCodeTokenRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            grant_type: "authorization_code";
            /**
             * @description `administration` (the administration interface) or the client_id of a registered application (`app_…`); may be left out when HTTP Basic carries it
             * @example administration
             */
            client_id?: string;
            /**
             * Format: password
             * @description A confidential application's secret (or HTTP Basic); public clients send none
             */
            client_secret?: string;
            /** @description The code the authorization endpoint sent to the redirect URI; once, within 60 s */
            code: string;
            /** @description The redirect_uri of the authorization request, the same string */
            redirect_uri: string;
            /** @description PKCE: the secret the code_challenge was made from, 43 to 128 characters */
            code_verifier: string;
        };
        /** @description An integration: its access key id and secret in the body, or in HTTP Basic (then neither here) */
        ClientCredentialsTokenRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            grant_type: "client_credentials";
            /** @description The access key id of an integration */
            client_id?: string;
            /**
             * Format: password
             * @description The secret access key
             */
            client_secret?: string;
            /** @description Space-separated permissions; defaults to everything the role grants */
            scope?: string;
        };
        /** @description A user of the administration interface signs in (unless OAUTH_PASSWORD_GRANT=off) */
        PasswordTokenRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            grant_type: "password";
            /**
             * @description The administration interface, a public client
             * @enum {string}
             */
            client_id: "administration";
            username: string;
            /** Format: password */
            password: string;
            /** @description Space-separated permissions; defaults to everything the role grants */
            scope?: string;
        };
        /** @description The client a sign-in was made at renews it; the refresh token works for that client only */
        RefreshTokenRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            grant_type: "refresh_token";
            /**
             * @description `administration` (the administration interface) or the client_id of a registered application (`app_…`); may be left out when HTTP Basic carries it
             * @example administration
             */
            client_id?: string;
            /**
             * Format: password
             * @description A confidential application's secret (or HTTP Basic); public clients send none
             */
            client_secret?: string;
            /** @description The latest refresh token of the sign-in */
            refresh_token: string;
            /** @description Space-separated permissions; defaults to those of the sign-in */
            scope?: string;
        };
        /** @description RFC 6749 §5.1 successful response */
        TokenResponse: {
            /** @description An ES256 JWT */
            access_token: string;
            /** @enum {string} */
            token_type: "Bearer";
            /**
             * @description Seconds until the access token expires
             * @example 3600
             */
            expires_in: number;
            /** @example product:read article:read */
            scope: string;
            /** @description authorization_code, password and refresh_token grants: rotated on every refresh; the previous one works again only within REFRESH_REUSE_GRACE of its rotation, later it revokes the sign-in */
            refresh_token?: string;
        };
        /** @description RFC 6749 §5.2 error response */
        OAuthError: {
            /** @enum {string} */
            error: "invalid_request" | "invalid_client" | "invalid_grant" | "unauthorized_client" | "unsupported_grant_type" | "invalid_scope" | "temporarily_unavailable";
            error_description?: string;
        };
        /** @description RFC 7009 revocation request (JSON or form) */
        RevocationRequest: {
            /** @description The token to revoke; a refresh token ends its whole sign-in */
            token: string;
            /**
             * @description `refresh_token` or `access_token`: a hint only (every kind is looked up; other values are ignored)
             * @example refresh_token
             */
            token_type_hint?: string;
            /** @description `administration`, a registered application's client_id (`app_…`), or an integration's access key id */
            client_id?: string;
            /**
             * Format: password
             * @description The secret of a confidential application or of an integration (or HTTP Basic)
             */
            client_secret?: string;
        };
        /** @description A public signing key (RFC 7517) */
        JsonWebKey: {
            /** @example EC */
            kty: string;
            /** @example P-256 */
            crv?: string;
            x?: string;
            y?: string;
            kid: string;
            /** @example ES256 */
            alg: string;
            /** @enum {string} */
            use: "sig";
        };
        JsonWebKeySet: {
            keys: components["schemas"]["JsonWebKey"][];
        };
        /** @description RFC 8414 metadata */
        AuthorizationServerMetadata: {
            /** Format: uri */
            issuer: string;
            /** Format: uri */
            authorization_endpoint: string;
            /** Format: uri */
            token_endpoint: string;
            /** Format: uri */
            jwks_uri: string;
            grant_types_supported: string[];
            token_endpoint_auth_methods_supported: string[];
            /** Format: uri */
            revocation_endpoint: string;
            revocation_endpoint_auth_methods_supported: string[];
            /**
             * @example [
             *       "code"
             *     ]
             */
            response_types_supported: string[];
            /**
             * @example [
             *       "S256"
             *     ]
             */
            code_challenge_methods_supported: string[];
            authorization_response_iss_parameter_supported: boolean;
            scopes_supported: string[];
        };
        /** @description The sign-in page posts the authorization request back with the credentials and its CSRF token */
        AuthorizationSignInForm: {
            /**
             * @description Only `code` (authorization code flow)
             * @enum {string}
             */
            response_type: "code";
            /**
             * @description `administration` (the administration interface) or the client_id of a registered application (`app_…`)
             * @example administration
             */
            client_id: string;
            /** @description Exactly a URI registered for the client (the administration interface: `<issuer>/admin/callback`) */
            redirect_uri: string;
            /** @description Space-separated permissions, within the client's ceiling; defaults to the client's default scope (the administration interface: everything the role grants) */
            scope?: string;
            /** @description Echoed to the redirect URI unchanged; at most 1000 characters (a longer one: invalid_request, not echoed) */
            state?: string;
            /** @description PKCE: BASE64URL(SHA-256(code_verifier)), 43 characters (RFC 7636) */
            code_challenge: string;
            /**
             * @description Only `S256`
             * @enum {string}
             */
            code_challenge_method: "S256";
            /** @description The sign-in form: its token as the page gave it, bound to the oauth_sign_in cookie */
            csrf_token?: string;
            /** @description The consent form: its token as the page gave it, bound to the oauth_sign_in cookie, the person who signed in and the scope shown */
            consent_token?: string;
            /**
             * @description `cancel` (sign-in form) and `deny` (consent form) send access_denied to the client
             * @enum {string}
             */
            action?: "sign-in" | "cancel" | "allow" | "deny";
            username?: string;
            /** Format: password */
            password?: string;
        };
        /** @enum {string} */
        IntegrationSort: "id" | "-id" | "label" | "-label" | "created_at" | "-created_at" | "last_used_at" | "-last_used_at";
        Integration: {
            /** @example 1 */
            id: number;
            /** @example ERP sync */
            label: string;
            /**
             * @description Role name
             * @example catalog-reader
             */
            role: string;
            /**
             * @description The client_id of the client credentials grant
             * @example FFIAQ3J5K7M2N4P6R7T2V4X6
             */
            access_key_id: string;
            /**
             * @description The client_secret: only in the answer to creation and to rotation, never again
             * @example ffsk_51BoCDHeN-ynp8dPl_AqOC78_nC-ub1MVBvSZDRQyvA
             */
            secret_access_key?: string;
            /**
             * @description false: its tokens stop working at once
             * @example true
             */
            active: boolean;
            /**
             * Format: date-time
             * @description Last token issued; null if never
             */
            last_used_at: string | null;
            /**
             * Format: date-time
             * @description End of the grace period of the previous secret after a rotation; null when there is none
             */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /**
             * Format: date-time
             * @description When the integration stops working (no new tokens, live ones refused); null: never
             */
            expires_at: string | null;
            /**
             * @description Who answers for it
             * @example team-erp@example.com
             */
            owner: string | null;
            /**
             * @description Whether a rotated-out secret still works (its grace period lasts)
             * @example false
             */
            previous_secret_active: boolean;
        };
        /** @description A page of integrations */
        IntegrationPage: {
            items: components["schemas"]["Integration"][];
            /**
             * @description How many match, over all pages
             * @example 1
             */
            total: number;
            /** @example 20 */
            limit: number;
            /** @example 0 */
            offset: number;
        };
        CreateIntegration: {
            /**
             * Format: date-time
             * @description When the integration stops working (in the future); null: never
             * @example 2027-01-01T00:00:00Z
             */
            expires_at?: string | null;
            /** @example team-erp@example.com */
            owner?: string | null;
            /** @example ERP sync */
            label: string;
            /**
             * @description Role name
             * @example catalog-reader
             */
            role: string;
        };
        UpdateIntegration: {
            /**
             * Format: date-time
             * @description When the integration stops working (in the future); null: never
             * @example 2027-01-01T00:00:00Z
             */
            expires_at?: string | null;
            /** @example team-erp@example.com */
            owner?: string | null;
            label?: string;
            role?: string;
            /** @description false disables the integration: its tokens stop working at once */
            active?: boolean;
        };
        /** @enum {string} */
        OAuthClientSort: "created_at" | "-created_at" | "name" | "-name";
        /** @description An application registered for the authorization code flow */
        OAuthClient: {
            /** @example app_Xq3bV0m7hZ1kLw9pRt2sYa */
            client_id: string;
            /** @example Shop front */
            name: string;
            /**
             * @example [
             *       "https://shop.example/oauth/callback"
             *     ]
             */
            redirect_uris: string[];
            /**
             * @description true: no secret (PKCE only); false: authenticates with its secret
             * @example false
             */
            public: boolean;
            /**
             * @description The scope ceiling
             * @example [
             *       "product:read",
             *       "article:read"
             *     ]
             */
            scopes: string[];
            /**
             * @description What a request without `scope` gets (the ceiling when none was set)
             * @example [
             *       "product:read"
             *     ]
             */
            default_scopes: string[];
            /**
             * Format: date-time
             * @description Until when the secret replaced by the last rotation still works (SECRET_ROTATION_GRACE)
             */
            previous_secret_expires_at?: string;
            /**
             * @description The client_secret of a confidential client: only in the answer to creation and rotation, never again
             * @example ffcs_51BoCDHeN-ynp8dPl_AqOC78_nC-ub1MVBvSZDRQyvA
             */
            client_secret?: string;
            /**
             * @description Who registered it
             * @example user:1
             */
            created_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description A page of registered OAuth clients */
        OAuthClientPage: {
            items: components["schemas"]["OAuthClient"][];
            /**
             * @description How many match, over all pages
             * @example 1
             */
            total: number;
            /** @example 20 */
            limit: number;
            /** @example 0 */
            offset: number;
        };
        CreateOAuthClient: {
            /**
             * @description Shown on the sign-in and consent pages ("to continue to …"), with the client_id and the redirect host. A name that could pass for the built-in administration interface ("Administration", "Admin UI"…) is refused.
             * @example Shop front
             */
            name: string;
            /**
             * @description Where the sign-in page may send the browser back, compared by exact string: https, or http on 127.0.0.1, localhost or [::1] (RFC 8252); no fragment, no user info
             * @example [
             *       "https://shop.example/oauth/callback"
             *     ]
             */
            redirect_uris: string[];
            /**
             * @description true: a public client (a browser or native app) without a secret; false: a confidential one
             * @example false
             */
            public: boolean;
            /**
             * @description The ceiling: no token issued to the client carries a permission outside it, whoever signs in. Each one from `GET /api/permissions`, and held by whoever registers or changes the client (`*` only by a holder of `*`): 403 `privilege-escalation` otherwise.
             * @example [
             *       "product:read",
             *       "article:read"
             *     ]
             */
            scopes: string[];
            /**
             * @description What a request without `scope` asks for: a part of `scopes`. Absent or null: all of `scopes`.
             * @example [
             *       "product:read"
             *     ]
             */
            default_scopes?: string[] | null;
        };
        UpdateOAuthClient: {
            /**
             * @description Shown on the sign-in and consent pages ("to continue to …"), with the client_id and the redirect host. A name that could pass for the built-in administration interface ("Administration", "Admin UI"…) is refused.
             * @example Shop front
             */
            name?: string;
            /**
             * @description Where the sign-in page may send the browser back, compared by exact string: https, or http on 127.0.0.1, localhost or [::1] (RFC 8252); no fragment, no user info
             * @example [
             *       "https://shop.example/oauth/callback"
             *     ]
             */
            redirect_uris?: string[];
            /**
             * @description The ceiling: no token issued to the client carries a permission outside it, whoever signs in. Each one from `GET /api/permissions`, and held by whoever registers or changes the client (`*` only by a holder of `*`): 403 `privilege-escalation` otherwise.
             * @example [
             *       "product:read",
             *       "article:read"
             *     ]
             */
            scopes?: string[];
            /**
             * @description What a request without `scope` asks for: a part of `scopes`. Absent or null: all of `scopes`.
             * @example [
             *       "product:read"
             *     ]
             */
            default_scopes?: string[] | null;
        };
        /** @enum {string} */
        RoleSort: "id" | "-id" | "name" | "-name" | "created_at" | "-created_at";
        Role: {
            /** @example 3 */
            id: number;
            /** @example catalog-reader */
            name: string;
            /**
             * @description `<resource>:<read|write>` or `*`
             * @example [
             *       "product:read",
             *       "article:read"
             *     ]
             */
            permissions: string[];
            /**
             * @description Seeded by the service; cannot be deleted
             * @example false
             */
            built_in: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description A page of roles */
        RolePage: {
            items: components["schemas"]["Role"][];
            /**
             * @description How many match, over all pages
             * @example 1
             */
            total: number;
            /** @example 20 */
            limit: number;
            /** @example 0 */
            offset: number;
        };
        CreateRole: {
            /** @example catalog-reader */
            name: string;
            /**
             * @description `<resource>:<read|write>` or `*`
             * @example [
             *       "product:read",
             *       "article:read"
             *     ]
             */
            permissions: string[];
        };
        UpdateRole: {
            name?: string;
            permissions?: string[];
        };
        /** @enum {string} */
        UserSort: "id" | "-id" | "username" | "-username" | "created_at" | "-created_at";
        User: {
            /** @example 2 */
            id: number;
            /** @example editor */
            username: string;
            /**
             * @description Role name
             * @example admin
             */
            role: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description A page of users */
        UserPage: {
            items: components["schemas"]["User"][];
            /**
             * @description How many match, over all pages
             * @example 1
             */
            total: number;
            /** @example 20 */
            limit: number;
            /** @example 0 */
            offset: number;
        };
        CreateUser: {
            /** @example editor */
            username: string;
            password: string;
            /**
             * @description Role name
             * @example admin
             */
            role: string;
        };
        UpdateUser: {
            password?: string;
            role?: string;
        };
        Permission: {
            /**
             * @description `<resource>:<read|write>`, or `*` for all
             * @example product:read
             */
            permission: string;
            /**
             * @description `*` for the permission `*`
             * @example product
             */
            resource: string;
            /**
             * @example read
             * @enum {string}
             */
            access: "read" | "write" | "*";
            /**
             * @description What it opens, for a person
             * @example Read products and product files
             */
            description: string;
        };
        RoleReference: {
            /** @example 1 */
            id: number;
            /** @example admin */
            name: string;
        };
        Me: {
            /**
             * @example user
             * @enum {string}
             */
            kind: "user" | "integration";
            /**
             * @description The id of the user or the integration
             * @example 1
             */
            id: number;
            /**
             * @description A user's username, an integration's label
             * @example admin
             */
            name: string;
            /** @description The role of the user or the integration */
            role: components["schemas"]["RoleReference"] | (null);
            /**
             * @description What this token's scope grants: `*`, or `<resource>:<read|write>` permissions
             * @example [
             *       "product:read",
             *       "product:write"
             *     ]
             */
            permissions: string[];
        };
        ChangeOwnPassword: {
            /** @description The password the user signs in with now */
            current_password: string;
            new_password: string;
        };
        /** @description A consent the caller gave to a registered application */
        Grant: {
            /** @example app_Xq3bV0m7hZ1kLw9pRt2sYa */
            client_id: string;
            /** @example Shop front */
            client_name: string;
            /**
             * @description Where the application receives sign-ins: the host of each of its redirect URIs, comma-separated
             * @example shop.example
             */
            redirect_host: string;
            /**
             * @description The permissions allowed to it
             * @example [
             *       "product:read"
             *     ]
             */
            scopes: string[];
            /**
             * Format: date-time
             * @description When the caller last allowed it
             */
            granted_at: string;
        };
        /** @description A page of the caller's grants, the latest first */
        GrantPage: {
            items: components["schemas"]["Grant"][];
            /**
             * @description How many match, over all pages
             * @example 1
             */
            total: number;
            /** @example 20 */
            limit: number;
            /** @example 0 */
            offset: number;
        };
        /**
         * @description upcoming: published, signs from activates_at; signing: signs now; retired: published, signs no more
         * @enum {string}
         */
        WebhookSigningKeyState: "upcoming" | "signing" | "retired";
        WebhookSigningKey: {
            /** @description Its `kid` in /.well-known/webhook-keys.json and in `webhook-key-id` */
            kid: string;
            /** @example EdDSA */
            algorithm: string;
            /** @description upcoming: published, signs from activates_at; signing: signs now; retired: published, signs no more */
            state: components["schemas"]["WebhookSigningKeyState"];
            /**
             * Format: date-time
             * @description When it starts (or started) signing
             */
            activates_at: string;
            /**
             * Format: date-time
             * @description When a newer key took over; null while it is the newest
             */
            retired_at: string | null;
            /**
             * Format: date-time
             * @description When it leaves the key set (every attempt it signed has ended by then); null while not retired
             */
            published_until: string | null;
        };
        /**
         * @description `github`: `X-Signature: sha256=<hex>` over the body (GitHub's format), secret `ffwh_…`. `standard`: Standard Webhooks v1 (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`), secret `whsec_<base64>`. `standard-v1a`: Standard Webhooks v1a, Ed25519 (`webhook-signature: v1a,<base64>`, the key named in `webhook-key-id` and published at /.well-known/webhook-keys.json), no secret. `standard-v1-v1a`: both
         * @enum {string}
         */
        WebhookSignatureScheme: "github" | "standard" | "standard-v1a" | "standard-v1-v1a";
        WebhookFilter: {
            /**
             * @description Only events about these attachment types (the `attachment_type` of `data.file`, or of `data` for file.reordered); events about none, such as webhook.ping and webhook.endpoint.disabled, always pass
             * @example [
             *       "product"
             *     ]
             */
            attachment_types: string[];
        };
        /**
         * @description `per-entity`: events about one item (a file’s item, or the endpoint for webhook.*) arrive in the order they were written; one that keeps failing holds back only its item’s later events, until its retries end. `none`: no order is kept, a retry does not hold anything back
         * @enum {string}
         */
        WebhookOrdering: "none" | "per-entity";
        /**
         * @description `thin`: the event’s id, kind and time, and `object` (and `entity`) with the URL of each, no `data`: the receiver reads the current state with its own token. `full`: the event’s `data`
         * @enum {string}
         */
        WebhookPayload: "full" | "thin";
        CreateWebhook: {
            /** @example https://example.org/hooks/files */
            url: string;
            /**
             * @description `github`: `X-Signature: sha256=<hex>` over the body (GitHub's format), secret `ffwh_…`. `standard`: Standard Webhooks v1 (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`), secret `whsec_<base64>`. `standard-v1a`: Standard Webhooks v1a, Ed25519 (`webhook-signature: v1a,<base64>`, the key named in `webhook-key-id` and published at /.well-known/webhook-keys.json), no secret. `standard-v1-v1a`: both
             * @default github
             */
            signature_scheme: components["schemas"]["WebhookSignatureScheme"];
            /**
             * @description Any of file.created, file.updated, file.deleted, file.reordered, webhook.endpoint.disabled, webhook.endpoint.failing, *
             * @example [
             *       "file.created",
             *       "file.deleted"
             *     ]
             */
            events: string[];
            /** @description Absent: every event of those kinds */
            filter?: components["schemas"]["WebhookFilter"];
            description?: string;
            /**
             * @description `per-entity`: events about one item (a file’s item, or the endpoint for webhook.*) arrive in the order they were written; one that keeps failing holds back only its item’s later events, until its retries end. `none`: no order is kept, a retry does not hold anything back
             * @default none
             */
            ordering: components["schemas"]["WebhookOrdering"];
            /**
             * @description `thin`: the event’s id, kind and time, and `object` (and `entity`) with the URL of each, no `data`: the receiver reads the current state with its own token. `full`: the event’s `data`
             * @default full
             */
            payload: components["schemas"]["WebhookPayload"];
            /**
             * @description Deliveries per second at most, from every instance together; null: no limit
             * @default null
             */
            rate_limit: number | null;
            /**
             * @description Once disabled for failing, probed every WEBHOOK_PROBE_INTERVAL and re-enabled when it answers 2xx, its missed events sent again (as Recover does)
             * @default false
             */
            auto_recover: boolean;
        };
        WebhookLastDelivery: {
            /**
             * @description succeeded: the receiver answered 2xx; failed: every attempt failed (retries included)
             * @enum {string}
             */
            status: "succeeded" | "failed";
            /**
             * Format: date-time
             * @description When it ended
             */
            at: string;
        };
        WebhookEndpoint: {
            /** @example 1 */
            id: number;
            /** @example https://example.org/hooks/files */
            url: string;
            /** @description `github`: `X-Signature: sha256=<hex>` over the body (GitHub's format), secret `ffwh_…`. `standard`: Standard Webhooks v1 (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`), secret `whsec_<base64>`. `standard-v1a`: Standard Webhooks v1a, Ed25519 (`webhook-signature: v1a,<base64>`, the key named in `webhook-key-id` and published at /.well-known/webhook-keys.json), no secret. `standard-v1-v1a`: both */
            signature_scheme: components["schemas"]["WebhookSignatureScheme"];
            /**
             * Format: date-time
             * @description End of the grace period of the last rotation: until then the previous secret signs too (in the past once it is over; null before any rotation)
             */
            previous_secret_expires_at: string | null;
            /**
             * @description Event kinds, or `*` for all
             * @example [
             *       "file.created",
             *       "file.deleted"
             *     ]
             */
            events: string[];
            /** @description `per-entity`: events about one item (a file’s item, or the endpoint for webhook.*) arrive in the order they were written; one that keeps failing holds back only its item’s later events, until its retries end. `none`: no order is kept, a retry does not hold anything back */
            ordering: components["schemas"]["WebhookOrdering"];
            /** @description `thin`: the event’s id, kind and time, and `object` (and `entity`) with the URL of each, no `data`: the receiver reads the current state with its own token. `full`: the event’s `data` */
            payload: components["schemas"]["WebhookPayload"];
            /** @description Deliveries per second at most, from every instance together; null: no limit */
            rate_limit: number | null;
            /** @description Once disabled for failing, probed every WEBHOOK_PROBE_INTERVAL and re-enabled when it answers 2xx, its missed events sent again (as Recover does) */
            auto_recover: boolean;
            /** @description null: every event of those kinds */
            filter: components["schemas"]["WebhookFilter"] | (null);
            /** @example ERP file sync */
            description: string | null;
            /**
             * @description false: nothing is sent to it (disabled by hand or after failing)
             * @example true
             */
            active: boolean;
            /**
             * @description Why the service disabled it (410 Gone, failing for too long); null otherwise
             * @example The endpoint answered 410 Gone.
             */
            disabled_reason: string | null;
            /**
             * Format: date-time
             * @description Since when its deliveries have been failing, with no success since (retries may still be under way); null while healthy
             */
            failing_since: string | null;
            /**
             * Format: date-time
             * @description When it was reported failing (after WEBHOOK_WARN_AFTER of failures: a webhook.endpoint.failing event and an audit entry), before it is disabled after WEBHOOK_DISABLE_AFTER; null while healthy
             */
            warned_at: string | null;
            /**
             * Format: date-time
             * @description When a disabled endpoint with auto_recover is probed next; null otherwise
             */
            next_probe_at: string | null;
            /** @description The newest delivery that ended (succeeded, or failed for good); null before any. Deliveries still retrying show in failing_since */
            last_delivery: components["schemas"]["WebhookLastDelivery"] | (null);
            /**
             * @description The signing secret, only in the answer to registration and to rotation. `ffwh_…` (github scheme): the whole string is the HMAC key. `whsec_<base64>` (standard schemes): the key is the base64-decoded rest. Never for standard-v1a, which has none
             * @example ffwh_wjpmdP1DKbOC9dn09FFIyfnQ2daAbHFFdmoeAUnO6U0
             */
            secret?: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @enum {string} */
        WebhookEndpointSort: "id" | "-id" | "url" | "-url" | "description" | "-description" | "created_at" | "-created_at";
        /** @description A page of webhook endpoints */
        WebhookEndpointPage: {
            items: components["schemas"]["WebhookEndpoint"][];
            /**
             * @description How many match, over all pages
             * @example 1
             */
            total: number;
            /** @example 20 */
            limit: number;
            /** @example 0 */
            offset: number;
        };
        WebhookEventType: {
            /**
             * @description The `event` of the body and the X-Webhook-Event header
             * @example file.created
             */
            event: string;
            /** @example A file was added to an item, such as a product’s cover. */
            description: string;
            /**
             * @description false: sent on demand only; endpoints cannot list it in `events`
             * @example true
             */
            subscribable: boolean;
            /**
             * @description Whether an endpoint’s `filter.attachment_types` applies to it
             * @example true
             */
            filterable_by_attachment_type: boolean;
            /**
             * @description The JSON Schema of `data`
             * @example {
             *       "type": "object",
             *       "required": [
             *         "file"
             *       ],
             *       "properties": {
             *         "file": {
             *           "type": "object"
             *         }
             *       }
             *     }
             */
            data_schema: {
                [key: string]: unknown;
            };
            /**
             * @description The schema of the whole body in the OpenAPI document (/api/docs-json)
             * @example #/components/schemas/WebhookEvent_file.created
             */
            openapi_schema: string;
        };
        UpdateWebhook: {
            url?: string;
            /** @description Only the current scheme is accepted (409 otherwise): the scheme changes with a rotation of the secret */
            signature_scheme?: components["schemas"]["WebhookSignatureScheme"];
            events?: string[];
            /** @description null removes the filter */
            filter?: components["schemas"]["WebhookFilter"] | (null);
            description?: string | null;
            /** @description true re-enables a disabled endpoint */
            active?: boolean;
            /** @description `per-entity`: events about one item (a file’s item, or the endpoint for webhook.*) arrive in the order they were written; one that keeps failing holds back only its item’s later events, until its retries end. `none`: no order is kept, a retry does not hold anything back. Applies to events written from then on */
            ordering?: components["schemas"]["WebhookOrdering"];
            /** @description `thin`: the event’s id, kind and time, and `object` (and `entity`) with the URL of each, no `data`: the receiver reads the current state with its own token. `full`: the event’s `data` */
            payload?: components["schemas"]["WebhookPayload"];
            /** @description Deliveries per second at most, from every instance together; null: no limit */
            rate_limit?: number | null;
            /** @description Once disabled for failing, probed every WEBHOOK_PROBE_INTERVAL and re-enabled when it answers 2xx, its missed events sent again (as Recover does) */
            auto_recover?: boolean;
        };
        RotateWebhookSecret: {
            /** @description The scheme of the new secret (the endpoint's own by default); during WEBHOOK_SECRET_GRACE the old secret still signs in the old scheme, next to the new one */
            signature_scheme?: components["schemas"]["WebhookSignatureScheme"];
        };
        WebhookPing: {
            /** @example evt_2f1c9a7e-0b4e-4a4f-9c55-0d0e3b1d2a11 */
            event_id: string;
        };
        RecoverWebhookDeliveries: {
            /**
             * Format: date-time
             * @description Deliveries created at or after
             * @example 2026-11-22T08:00:00Z
             */
            since: string;
            /**
             * Format: date-time
             * @description Deliveries created before this time, later than `since`; default: now
             * @example 2026-11-22T12:00:00Z
             */
            until?: string;
            /**
             * @description Which deliveries: failed (retries exhausted, or 410 Gone), skipped (the endpoint was disabled); at most 10000 per call
             * @default [
             *       "failed",
             *       "skipped"
             *     ]
             */
            status: ("failed" | "skipped")[];
        };
        WebhookRecovery: {
            /**
             * @description Deliveries re-queued: each gets one new attempt, with its event id, oldest first
             * @example 42
             */
            requeued: number;
            /**
             * @description Deliveries of the window left for a further call (more than 10000 matched)
             * @example 0
             */
            remaining: number;
            /**
             * Format: date-time
             * @description Set when `remaining` > 0: the `since` of the call that goes on (same `until`), once this recovery has finished (409 until then)
             * @example null
             */
            next_since: string | null;
            /** Format: date-time */
            since: string;
            /**
             * Format: date-time
             * @description The end of the window: the time of the call when not given
             */
            until: string;
        };
        WebhookAttempt: {
            /** Format: date-time */
            attempted_at: string;
            /**
             * @description null when no answer came
             * @example 200
             */
            status_code: number | null;
            /**
             * @description Why the attempt failed, if it did
             * @example null
             */
            error: string | null;
            /** @example 87 */
            duration_ms: number;
            /**
             * @description The first 2 KiB of the response body
             * @example ok
             */
            response_body: string | null;
        };
        WebhookDelivery: {
            /** @example 12 */
            id: number;
            /**
             * @description The same on every retry
             * @example evt_2f1c9a7e-0b4e-4a4f-9c55-0d0e3b1d2a11
             */
            event_id: string;
            /**
             * @description The event's kind: its `event` and X-Webhook-Event header
             * @example file.created
             */
            event: string;
            /**
             * @example succeeded
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed" | "skipped";
            /**
             * @description Attempts made so far
             * @example 1
             */
            attempts: number;
            /**
             * Format: date-time
             * @description Set only while pending
             */
            next_attempt_at: string | null;
            /** @example 200 */
            last_status_code: number | null;
            /** @example null */
            last_error: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            completed_at: string | null;
            /** @description Oldest first; kept for the retention period */
            attempt_log: components["schemas"]["WebhookAttempt"][];
        };
        WebhookDeliveryPage: {
            items: components["schemas"]["WebhookDelivery"][];
            /**
             * @description Deliveries matching the filter, over all pages
             * @example 1
             */
            total: number;
            /** @example 20 */
            limit: number;
            /** @example 0 */
            offset: number;
        };
        /** @description The file a client is about to send straight to the storage */
        StartDirectUpload: {
            /**
             * @description Kept for display only
             * @example holiday.mp4
             */
            filename: string;
            /**
             * @description Checked against the field's accepted types now; the record takes the type sniffed from the bytes
             * @example video/mp4
             */
            content_type: string;
            /**
             * @description Exact size in bytes
             * @example 73400320
             */
            size: number;
        };
        /** @description One part's presigned URL */
        DirectUploadPart: {
            /** @example 1 */
            part_number: number;
            /**
             * Format: uri
             * @description PUT exactly `size` bytes of the file here, without an Authorization header; the response has the ETag header to send at completion
             */
            url: string;
            /**
             * @description Bytes of this part (the Content-Length)
             * @example 8388608
             */
            size: number;
        };
        /** @description A direct upload: where each part goes, and where to complete it */
        DirectUpload: {
            /**
             * @description Unguessable (256 bits); only the principal that started the upload can use it
             * @example p3JxV0bq2ZbWcV3bO7mJ4m2sYlq8y5rQKcIuE3Hh1Xw
             */
            id: string;
            /**
             * @description Bytes per part; the last part may be shorter
             * @example 8388608
             */
            part_size: number;
            parts: components["schemas"]["DirectUploadPart"][];
            /** @example /files/direct-uploads/p3JxV0bq2ZbWcV3bO7mJ4m2sYlq8y5rQKcIuE3Hh1Xw/complete */
            complete_url: string;
            /**
             * Format: date-time
             * @description The part URLs stop working then, and an upload not completed by then is removed
             */
            expires_at: string;
        };
        /** @description A part the client has PUT, with the ETag the storage answered */
        UploadedPart: {
            /** @example 1 */
            part_number: number;
            /** @example "9b2cf535f27731c974343645a3985328" */
            etag: string;
        };
        /** @description Every part of the upload, in order */
        CompleteDirectUpload: {
            parts: components["schemas"]["UploadedPart"][];
        };
        /** @description One image variant of a file, as its field declares it */
        FileVariant: {
            /**
             * Format: uri
             * @description URL of the variant that works without an Authorization header until it expires (signed)
             */
            url: string;
            /**
             * @description Pixels (of one frame when animated)
             * @example 200
             */
            width: number;
            /**
             * @description Pixels (of one frame when animated)
             * @example 200
             */
            height: number;
            /**
             * @description Bytes
             * @example 8133
             */
            size: number;
            /** @example image/webp */
            mime_type: string;
        };
        /** @description One file of a file field */
        FileRecord: {
            /** @example 1 */
            id: number;
            /**
             * @description Storage key
             * @example product/7/2f1c9a7e-0b4e-4a4f-9c55-0d0e3b1d2a11
             */
            path: string;
            /**
             * Format: uri
             * @description The content, without an Authorization header, until the URL expires (at least FILE_URL_TTL, default an hour). The same for up to an hour, so caches keep it; new when the file is replaced. With FILE_URL_MODE=direct, a presigned URL of the S3 bucket.
             * @example https://api.example.com/files/1/signed?expires=1795440000&signature=FrgZyg_MC2qIJ_T-MCdg92wBlgelbXe5ZVO07AnVO_I
             */
            url: string;
            /** @example 7 */
            attachment_id: number;
            /** @example product */
            attachment_type: string;
            /** @example gallery */
            field: string;
            /**
             * @description Position within the field, from 0
             * @example 0
             */
            sort_order: number;
            /** @example photo.png */
            original_name: string;
            /**
             * @description Sniffed from the bytes
             * @example image/png
             */
            mime_type: string;
            /**
             * @description Bytes
             * @example 48213
             */
            size: number;
            /**
             * @description Pixels of an image as shown (EXIF orientation applied; one frame); null for other files
             * @example 1200
             */
            width: number | null;
            /**
             * @description Pixels of an image as shown (EXIF orientation applied; one frame); null for other files
             * @example 800
             */
            height: number | null;
            /** @description Only in fields that declare image variants: each variant by name, null while it is being made. A file that is no JPEG, PNG, WebP, GIF, AVIF or TIFF image has none ({}), nor has an image whose pixels do not decode. */
            variants?: {
                [key: string]: components["schemas"]["FileVariant"] | (never | null);
            };
            /** @example e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 */
            checksum_sha256: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        FileFieldRules: {
            /** @example cover */
            name: string;
            /**
             * @description true: an ordered list of files; false: one file or none
             * @example false
             */
            multi: boolean;
            /**
             * @description MIME types and patterns accepted, judged on the type sniffed from the bytes (`*\/*`: any type)
             * @example [
             *       "image/*"
             *     ]
             */
            accept: string[];
            /**
             * @description Types refused even where a pattern of `accept` matches: named exactly in `accept`, they are not
             * @example [
             *       "text/html",
             *       "image/svg+xml"
             *     ]
             */
            refused: string[];
            /**
             * @description Largest file in bytes (MAX_FILE_SIZE applied)
             * @example 5242880
             */
            max_size: number;
            /**
             * @description Most files the field holds: 1 for a single field (an upload replaces its file); null: no limit
             * @example 30
             */
            max_count: number | null;
            /**
             * @description Most `file` parts one upload request may carry
             * @example 20
             */
            max_files_per_request: number;
            /**
             * @description Most pixels (width × height) of an image; null when the field does not look at images
             * @example 268402689
             */
            max_pixels: number | null;
            /**
             * @description The image variants each image of the field gets
             * @example [
             *       "thumb",
             *       "large"
             *     ]
             */
            variants: string[];
        };
        AttachmentType: {
            /**
             * @description The `{attachmentType}` of the file routes
             * @example product
             */
            attachment_type: string;
            /**
             * @description Where the entities of this type are listed; null when the application does not say
             * @example /products
             */
            collection_path: string | null;
            fields: components["schemas"]["FileFieldRules"][];
        };
        ReorderFiles: {
            /**
             * @description Every file id of the field, in the new order
             * @example [
             *       12,
             *       10,
             *       11
             *     ]
             */
            ids: number[];
        };
        /** @enum {string} */
        ProductSort: "id" | "-id" | "name" | "-name" | "created_at" | "-created_at";
        Product: {
            /**
             * ID
             * @example 7
             */
            id: number;
            /**
             * Name
             * @description What the product is called
             * @example Desk lamp
             */
            name: string;
            /**
             * Description
             * @description What a customer reads about the product
             */
            description: string | null;
            /**
             * Created
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated
             * Format: date-time
             */
            updated_at: string;
            /**
             * Cover image
             * @description The picture that shows the product in lists. File field (null when empty): each at most 5242880 bytes; accepts image/*; image variants thumb 200×200 cover, large 1600 wide inside webp (see FileRecord.variants).
             */
            cover: components["schemas"]["FileRecord"] | (null);
            /**
             * Gallery
             * @description More pictures and documents, in the order they are shown. File field (multi, ordered by sort_order; [] when empty): at most 30 files; accepts image/*, application/pdf; image variants thumb 200×200 cover (see FileRecord.variants).
             */
            gallery: components["schemas"]["FileRecord"][];
        };
        /** @description A page of products, files resolved */
        ProductPage: {
            items: components["schemas"]["Product"][];
            /**
             * @description How many match, over all pages
             * @example 1
             */
            total: number;
            /** @example 20 */
            limit: number;
            /** @example 0 */
            offset: number;
        };
        CreateProduct: {
            /**
             * Name
             * @description What the product is called
             * @example Desk lamp
             */
            name: string;
            /**
             * Description
             * @description What a customer reads about the product
             */
            description?: string | null;
        };
        UpdateProduct: {
            /**
             * Name
             * @description What the product is called
             * @example Desk lamp
             */
            name?: string;
            /**
             * Description
             * @description What a customer reads about the product
             */
            description?: string | null;
        };
        /** @enum {string} */
        ArticleSort: "id" | "-id" | "title" | "-title" | "created_at" | "-created_at";
        Article: {
            /**
             * ID
             * @example 7
             */
            id: number;
            /**
             * Title
             * @description The headline of the article
             * @example Release notes
             */
            title: string;
            /**
             * Created
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated
             * Format: date-time
             */
            updated_at: string;
            /**
             * Thumbnail
             * @description The small picture shown next to the title. File field (null when empty): accepts image/*.
             */
            thumbnail: components["schemas"]["FileRecord"] | (null);
            /**
             * Attachments
             * @description Files to download with the article, in their order. File field (multi, ordered by sort_order; [] when empty): at most 10 files.
             */
            attachments: components["schemas"]["FileRecord"][];
        };
        /** @description A page of articles, files resolved */
        ArticlePage: {
            items: components["schemas"]["Article"][];
            /**
             * @description How many match, over all pages
             * @example 1
             */
            total: number;
            /** @example 20 */
            limit: number;
            /** @example 0 */
            offset: number;
        };
        CreateArticle: {
            /**
             * Title
             * @description The headline of the article
             * @example Release notes
             */
            title: string;
        };
        UpdateArticle: {
            /**
             * Title
             * @description The headline of the article
             * @example Release notes
             */
            title?: string;
        };
        HealthChecks: {
            /** @enum {string} */
            database: "up" | "down";
            /** @enum {string} */
            storage: "up" | "down";
        };
        /** @description This instance's kept catalog answers since it started */
        HealthReadCache: {
            /** @description Answers sent again */
            hits: number;
            /** @description Answers made anew */
            misses: number;
            /** @description Times every kept answer was dropped (data or URL window changed) */
            flushes: number;
        };
        Health: {
            /** @enum {string} */
            status: "ok";
            checks: components["schemas"]["HealthChecks"];
            readCache: components["schemas"]["HealthReadCache"];
        };
        /** @description RFC 6749 token request, one schema per grant_type (form or JSON) */
        TokenRequest: components["schemas"]["AuthorizationCodeTokenRequest"] | components["schemas"]["ClientCredentialsTokenRequest"] | components["schemas"]["PasswordTokenRequest"] | components["schemas"]["RefreshTokenRequest"];
        /** @description The body of a file.created delivery: A file was added to an item, such as a product’s cover. */
        "WebhookEvent_file.created": {
            /**
             * @description The same on every retry
             * @example evt_2f1c9a7e0b4e4a4f9c550d0e3b1d2a11
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "file.created";
            /**
             * Format: date-time
             * @description When the event happened
             */
            created_at: string;
            /** @description When this attempt was sent, in Unix seconds */
            timestamp: number;
            data: {
                /** @description One file of a file field */
                file: {
                    id: number;
                    /** @description Storage key */
                    path: string;
                    attachment_id: number;
                    attachment_type: string;
                    field: string;
                    /** @description Position within the field, from 0 */
                    sort_order: number;
                    original_name: string;
                    /** @description Sniffed from the bytes */
                    mime_type: string;
                    /** @description Bytes */
                    size: number;
                    /** @description Pixels of an image as shown; null for other files */
                    width: number | null;
                    /** @description Pixels of an image as shown; null for other files */
                    height: number | null;
                    checksum_sha256: string;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /**
                     * Format: uri
                     * @description Never in events: signed URLs expire (GET /files/{id} gives a current one)
                     */
                    url?: string;
                    /** @description Never in events: image variants are made after the change (GET /files/{id} lists them) */
                    variants?: Record<string, never>;
                };
            };
        };
        /** @description The body of a file.deleted delivery: A file was removed, also when the item it belonged to was deleted. */
        "WebhookEvent_file.deleted": {
            /**
             * @description The same on every retry
             * @example evt_2f1c9a7e0b4e4a4f9c550d0e3b1d2a11
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "file.deleted";
            /**
             * Format: date-time
             * @description When the event happened
             */
            created_at: string;
            /** @description When this attempt was sent, in Unix seconds */
            timestamp: number;
            data: {
                /** @description One file of a file field */
                file: {
                    id: number;
                    /** @description Storage key */
                    path: string;
                    attachment_id: number;
                    attachment_type: string;
                    field: string;
                    /** @description Position within the field, from 0 */
                    sort_order: number;
                    original_name: string;
                    /** @description Sniffed from the bytes */
                    mime_type: string;
                    /** @description Bytes */
                    size: number;
                    /** @description Pixels of an image as shown; null for other files */
                    width: number | null;
                    /** @description Pixels of an image as shown; null for other files */
                    height: number | null;
                    checksum_sha256: string;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /**
                     * Format: uri
                     * @description Never in events: signed URLs expire (GET /files/{id} gives a current one)
                     */
                    url?: string;
                    /** @description Never in events: image variants are made after the change (GET /files/{id} lists them) */
                    variants?: Record<string, never>;
                };
            };
        };
        /** @description The body of a file.reordered delivery: The files of a list, such as a gallery, were put in a new order. */
        "WebhookEvent_file.reordered": {
            /**
             * @description The same on every retry
             * @example evt_2f1c9a7e0b4e4a4f9c550d0e3b1d2a11
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "file.reordered";
            /**
             * Format: date-time
             * @description When the event happened
             */
            created_at: string;
            /** @description When this attempt was sent, in Unix seconds */
            timestamp: number;
            data: {
                attachment_type: string;
                attachment_id: number;
                field: string;
                /** @description The field’s files in their new order */
                files: {
                    id: number;
                    /** @description Storage key */
                    path: string;
                    attachment_id: number;
                    attachment_type: string;
                    field: string;
                    /** @description Position within the field, from 0 */
                    sort_order: number;
                    original_name: string;
                    /** @description Sniffed from the bytes */
                    mime_type: string;
                    /** @description Bytes */
                    size: number;
                    /** @description Pixels of an image as shown; null for other files */
                    width: number | null;
                    /** @description Pixels of an image as shown; null for other files */
                    height: number | null;
                    checksum_sha256: string;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /**
                     * Format: uri
                     * @description Never in events: signed URLs expire (GET /files/{id} gives a current one)
                     */
                    url?: string;
                    /** @description Never in events: image variants are made after the change (GET /files/{id} lists them) */
                    variants?: Record<string, never>;
                }[];
            };
        };
        /** @description The body of a file.updated delivery: A file was replaced by another one. */
        "WebhookEvent_file.updated": {
            /**
             * @description The same on every retry
             * @example evt_2f1c9a7e0b4e4a4f9c550d0e3b1d2a11
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "file.updated";
            /**
             * Format: date-time
             * @description When the event happened
             */
            created_at: string;
            /** @description When this attempt was sent, in Unix seconds */
            timestamp: number;
            data: {
                /** @description One file of a file field */
                file: {
                    id: number;
                    /** @description Storage key */
                    path: string;
                    attachment_id: number;
                    attachment_type: string;
                    field: string;
                    /** @description Position within the field, from 0 */
                    sort_order: number;
                    original_name: string;
                    /** @description Sniffed from the bytes */
                    mime_type: string;
                    /** @description Bytes */
                    size: number;
                    /** @description Pixels of an image as shown; null for other files */
                    width: number | null;
                    /** @description Pixels of an image as shown; null for other files */
                    height: number | null;
                    checksum_sha256: string;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /**
                     * Format: uri
                     * @description Never in events: signed URLs expire (GET /files/{id} gives a current one)
                     */
                    url?: string;
                    /** @description Never in events: image variants are made after the change (GET /files/{id} lists them) */
                    variants?: Record<string, never>;
                };
            };
        };
        /** @description The body of a webhook.endpoint.disabled delivery: The service stopped sending to another webhook, because its receiver answered “410 Gone” or kept failing for too long. Once the receiver works again, enable that webhook and send it what it missed (Recover). */
        "WebhookEvent_webhook.endpoint.disabled": {
            /**
             * @description The same on every retry
             * @example evt_2f1c9a7e0b4e4a4f9c550d0e3b1d2a11
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "webhook.endpoint.disabled";
            /**
             * Format: date-time
             * @description When the event happened
             */
            created_at: string;
            /** @description When this attempt was sent, in Unix seconds */
            timestamp: number;
            data: {
                /** @description The endpoint disabled */
                endpoint_id: number;
                /** @description The origin of its URL (scheme, host, port), never its path or query, which may hold a token */
                origin: string;
                /**
                 * @description 410 Gone, or failing for too long
                 * @enum {string}
                 */
                reason: "gone" | "failing";
                /** @description The endpoint’s disabled_reason */
                message: string;
                /**
                 * Format: date-time
                 * @description When its deliveries started failing
                 */
                since: string;
            };
        };
        /** @description The body of a webhook.endpoint.failing delivery: Every delivery to another webhook has failed for a while (WEBHOOK_WARN_AFTER): unless its receiver answers again, the service disables that webhook at disabled_at. */
        "WebhookEvent_webhook.endpoint.failing": {
            /**
             * @description The same on every retry
             * @example evt_2f1c9a7e0b4e4a4f9c550d0e3b1d2a11
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "webhook.endpoint.failing";
            /**
             * Format: date-time
             * @description When the event happened
             */
            created_at: string;
            /** @description When this attempt was sent, in Unix seconds */
            timestamp: number;
            data: {
                /** @description The endpoint failing */
                endpoint_id: number;
                /** @description The origin of its URL (scheme, host, port), never its path or query, which may hold a token */
                origin: string;
                /**
                 * Format: date-time
                 * @description When its deliveries started failing
                 */
                since: string;
                /**
                 * Format: date-time
                 * @description When it will be disabled if every delivery keeps failing (since + WEBHOOK_DISABLE_AFTER)
                 */
                disabled_at: string;
            };
        };
        /** @description The body of a webhook.ping delivery: A test event, sent to one webhook only, when someone asks for it (Send ping), or to probe a disabled webhook that recovers by itself. */
        "WebhookEvent_webhook.ping": {
            /**
             * @description The same on every retry
             * @example evt_2f1c9a7e0b4e4a4f9c550d0e3b1d2a11
             */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            event: "webhook.ping";
            /**
             * Format: date-time
             * @description When the event happened
             */
            created_at: string;
            /** @description When this attempt was sent, in Unix seconds */
            timestamp: number;
            data: {
                /** @description The endpoint pinged */
                endpoint_id: number;
                /** @description Present (true) when the service checks whether a disabled endpoint with auto_recover answers again */
                probe?: boolean;
            };
        };
        /** @description The body of any webhook delivery; `event` tells which */
        WebhookEvent: components["schemas"]["WebhookEvent_file.created"] | components["schemas"]["WebhookEvent_file.deleted"] | components["schemas"]["WebhookEvent_file.reordered"] | components["schemas"]["WebhookEvent_file.updated"] | components["schemas"]["WebhookEvent_webhook.endpoint.disabled"] | components["schemas"]["WebhookEvent_webhook.endpoint.failing"] | components["schemas"]["WebhookEvent_webhook.ping"];
        /** @description Something a thin event is about */
        WebhookObjectReference: {
            /**
             * @description `file`, `webhook`, or an attachment type
             * @example file
             */
            type: string;
            id: number;
            /**
             * Format: uri
             * @description Where its current state is read (absent for items of a type with no collection path)
             */
            url?: string;
        };
        /** @description The body of a delivery to an endpoint with `payload: thin`: no `data`, but the object the event is about (and the item it belongs to), whose current state the receiver reads at `url` with its own token */
        WebhookThinEvent: {
            /**
             * @description The same on every retry
             * @example evt_2f1c9a7e0b4e4a4f9c550d0e3b1d2a11
             */
            id: string;
            /** @enum {string} */
            event: "file.created" | "file.deleted" | "file.reordered" | "file.updated" | "webhook.endpoint.disabled" | "webhook.endpoint.failing" | "webhook.ping";
            /**
             * Format: date-time
             * @description When the event happened
             */
            created_at: string;
            /** @description When this attempt was sent, in Unix seconds */
            timestamp: number;
            /** @description The file (file.created, .updated, .deleted), the item (file.reordered) or the webhook (webhook.*) */
            object: components["schemas"]["WebhookObjectReference"] | null;
            /** @description The item a file belongs to (file.* except reordered) */
            entity?: components["schemas"]["WebhookObjectReference"];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAuditEvents: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description Exact match, e.g. `user:1`, `integration:3`, `cli` */
                actor?: string;
                /** @description Exact match */
                action?: string;
                /** @description Exact match on the kind of record changed */
                target_type?: string;
                /** @description Exact match on the id of the record changed */
                target_id?: string;
                /** @description Only events at or after this time (RFC 3339) */
                since?: string;
                /** @description Only events before this time (RFC 3339) */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventPage"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["TokenRequest"];
                "application/json": components["schemas"]["TokenRequest"];
            };
        };
        responses: {
            /** @description A new access token (and refresh token) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description invalid_request, invalid_grant, unsupported_grant_type, invalid_scope, unauthorized_client */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description invalid_client: unknown client or wrong secret */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Too many failed attempts from this address or for this client; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description temporarily_unavailable; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["RevocationRequest"];
                "application/json": components["schemas"]["RevocationRequest"];
            };
        };
        responses: {
            /** @description Revoked, or nothing to revoke (RFC 7009 §2.2); the body is empty */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid_request: the token parameter is missing, or the request is malformed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description invalid_client: unknown client or wrong secret */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description The body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Too many failed attempts from this address or for this client; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    getJwks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonWebKeySet"];
                };
            };
        };
    };
    getAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthorizationServerMetadata"];
                };
            };
        };
    };
    authorize: {
        parameters: {
            query: {
                response_type: "code";
                client_id: string;
                redirect_uri: string;
                scope?: string;
                state?: string;
                code_challenge: string;
                code_challenge_method: "S256";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sign-in page; sets the oauth_sign_in cookie its form is bound to */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description An error sent back to the redirect URI */
            302: {
                headers: {
                    /** @description The redirect URI with the response parameters */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An error page: unknown client, or a redirect URI not registered for it */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
        };
    };
    authorizeSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["AuthorizationSignInForm"];
            };
        };
        responses: {
            /** @description The consent page of a registered application, or a fresh sign-in page: the form was older than 15 minutes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Signed in (`code`), or an error sent back to the redirect URI */
            303: {
                headers: {
                    /** @description The redirect URI with the response parameters */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The page again (username or password missing, neither Allow nor Deny), or an error page (unknown client or redirect URI) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description The page again: wrong username or password */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The sign-in page again: the form token is missing, forged or not bound to this browser (its cookie) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The page again: too many failed sign-ins; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The page again: too many password checks at once; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    listIntegrations: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description Only those whose label or access key id contains this text, in any case (`%` and `_` are literal) */
                q?: string;
                /** @description The order: a property, descending with a leading `-`; ties in id order, the same way. Default: `id`. */
                sort?: components["schemas"]["IntegrationSort"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntegrationPage"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    createIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateIntegration"];
            };
        };
        responses: {
            /** @description With `secret_access_key` */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such role */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such integration */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    deleteIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such integration */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    updateIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateIntegration"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such integration or role */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    rotateIntegrationSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description With the new `secret_access_key` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such integration */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    expirePreviousIntegrationSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Integration"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such integration */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listOAuthClients: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description Only those whose name or client_id contains this text, in any case (`%` and `_` are literal) */
                q?: string;
                /** @description The order: a property, descending with a leading `-`; ties in id order, the same way. Default: `created_at`. */
                sort?: components["schemas"]["OAuthClientSort"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientPage"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    createOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOAuthClient"];
            };
        };
        responses: {
            /** @description With `client_secret` for a confidential client */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClient"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /**
             * @description The token lacks oauth-client:write, or a permission of `scopes` (privilege-escalation)
             *
             *     The token lacks the permission
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client_id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClient"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such OAuth client (the built-in administration client is not one) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    deleteOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client_id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted, with its authorization codes; every sign-in made at it is revoked: its refresh tokens fail and its access tokens are refused at once */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /**
             * @description The token lacks oauth-client:write, or a permission of the client’s ceiling (privilege-escalation)
             *
             *     The token lacks the permission
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such OAuth client (the built-in administration client is not one) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    updateOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client_id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOAuthClient"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClient"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /**
             * @description The token lacks oauth-client:write, or a permission of the client’s ceiling (privilege-escalation)
             *
             *     The token lacks the permission
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such OAuth client (the built-in administration client is not one) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    rotateOAuthClientSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client_id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description With the new `client_secret` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClient"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /**
             * @description The token lacks oauth-client:write, or a permission of the client’s ceiling (privilege-escalation)
             *
             *     The token lacks the permission
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such OAuth client (the built-in administration client is not one) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description A public client has no secret */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    expirePreviousOAuthClientSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client_id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClient"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /**
             * @description The token lacks oauth-client:write, or a permission of the client’s ceiling (privilege-escalation)
             *
             *     The token lacks the permission
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such OAuth client (the built-in administration client is not one) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listRoles: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description Only those whose name contains this text, in any case (`%` and `_` are literal) */
                q?: string;
                /** @description The order: a property, descending with a leading `-`; ties in id order, the same way. Default: `id`. */
                sort?: components["schemas"]["RoleSort"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RolePage"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    createRole: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRole"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Role"];
                };
            };
            /** @description Invalid body, or a permission that is not `<resource>:<read|write>` or `*` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The name is taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Role"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such role */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    deleteRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such role */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description A user or an integration has the role, or it is built in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    updateRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRole"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Role"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such role */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The name is taken, or the role is built in */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description Only those whose username contains this text, in any case (`%` and `_` are literal) */
                q?: string;
                /** @description The order: a property, descending with a leading `-`; ties in id order, the same way. Default: `id`. */
                sort?: components["schemas"]["UserSort"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPage"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUser"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description Invalid body, or a password that is too short */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such role */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The username is taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description It is the last administrator */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUser"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such user or role */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description It would leave no administrator */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listPermissions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Permission"][];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    changeOwnPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeOwnPassword"];
            };
        };
        responses: {
            /** @description Changed; the user's other sign-ins are ended, this one stays */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid body, a new password that is too short, or a wrong current password */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Too many wrong passwords for this user; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not available at the moment; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listMyGrants: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GrantPage"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    revokeMyGrant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The client_id of the application */
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked: the consent is forgotten (the next sign-in there asks again) and every sign-in the user made at the application ends: its refresh tokens fail and its access tokens are refused at once */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The caller gave no consent to this client (an integration never has any), or the token is another application’s: an application withdraws only its own grant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getWebhookKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonWebKeySet"];
                };
            };
            /** @description If-None-Match matched: the copy the client holds is current */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listWebhookSigningKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSigningKey"][];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    rotateWebhookSigningKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSigningKey"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description Only those whose URL or description contains this text, in any case (`%` and `_` are literal) */
                q?: string;
                /** @description The order: a property, descending with a leading `-`; ties in id order, the same way. Default: `id`. */
                sort?: components["schemas"]["WebhookEndpointSort"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointPage"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhook"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Invalid body, or a refused URL (`unsafe-webhook-url`: malformed, not https, with credentials, or pointing at a private network), its cause also in `errors` as a violation of `url` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listWebhookEventTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEventType"][];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such webhook endpoint */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks webhook:write, or a permission the endpoint's events need (`<type>:read` of each attachment type it may receive): `privilege-escalation`, listing them in `missing_permissions` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such webhook endpoint */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhook"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Invalid body, or a refused URL (`unsafe-webhook-url`: malformed, not https, with credentials, or pointing at a private network), its cause also in `errors` as a violation of `url` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks webhook:write, or a permission the endpoint's events need (`<type>:read` of each attachment type it may receive): `privilege-escalation`, listing them in `missing_permissions` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such webhook endpoint */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description A different signature_scheme: the scheme changes only with a rotation (rotate-secret) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateWebhookSecret"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks webhook:write, or a permission the endpoint's events need (`<type>:read` of each attachment type it may receive): `privilege-escalation`, listing them in `missing_permissions` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such webhook endpoint */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    pingWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookPing"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such webhook endpoint */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Pinged 10 times within the last hour; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    recoverWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecoverWebhookDeliveries"];
            };
        };
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRecovery"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks webhook:write, or a permission the endpoint's events need (`<type>:read` of each attachment type it may receive): `privilege-escalation`, listing them in `missing_permissions` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such webhook endpoint */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description A recovery of this endpoint is still running, or the endpoint is disabled (re-enable it first) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                status?: "pending" | "succeeded" | "failed" | "skipped";
                /** @description Only deliveries of events of this kind */
                event?: string;
                /** @description Only the delivery of this event (its `id`, the `X-Webhook-Id` or `webhook-id` a receiver got) */
                event_id?: string;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such webhook endpoint */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    redeliverWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                deliveryId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks webhook:write, or a permission the endpoint's events need (`<type>:read` of each attachment type it may receive): `privilege-escalation`, listing them in `missing_permissions` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such endpoint or delivery */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    startDirectUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                attachmentType: string;
                attachmentId: number;
                fieldName: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartDirectUpload"];
            };
        };
        responses: {
            /** @description Upload started; nothing is recorded yet */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DirectUpload"];
                };
            };
            /** @description Invalid body or id */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unknown attachment type or field, or no such entity */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The multi field already holds its maxCount files (counting the uploads under way into it), an upload to the single field is under way, or the storage is local disk (direct-uploads-unavailable) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The declared size exceeds the field's maxSize or MAX_FILE_SIZE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The declared type is not accepted by the field */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description This client holds OPEN_UPLOADS_PER_PRINCIPAL unfinished uploads, or they declare OPEN_UPLOAD_BYTES_PER_PRINCIPAL; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not available at the moment; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    completeDirectUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id the start of the upload answered */
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompleteDirectUpload"];
            };
        };
        responses: {
            /** @description Single field: file replaced */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileRecord"];
                };
            };
            /** @description Record created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileRecord"];
                };
            };
            /** @description Invalid body, or the parts do not match the upload (direct-upload-parts-invalid) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such upload, another principal's, expired or already completed; or the entity is gone */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Another request is completing it, or the multi field filled up */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description An image beyond the field's maxPixels or decoding budget */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The sniffed type is not accepted by the field, or an image it cannot decode */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The stored size differs from the declared size (direct-upload-size-mismatch) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description UPLOADS_PER_PRINCIPAL uploads or completions of this client are in flight; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not available at the moment; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    cancelDirectUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id the start of the upload answered */
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Cancelled */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such upload, another principal's, expired or completed */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Being completed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not available at the moment; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listAttachmentTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttachmentType"][];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    uploadArticleThumbnail: {
        parameters: {
            query?: never;
            header?: {
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): `?1` this request carries the whole file (its answer is the record), `?0` more follows */
                "Upload-Complete"?: "?1" | "?0";
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15) too: the whole length in bytes */
                "Upload-Length"?: string;
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the file's name, `inline; filename="photo.png"` */
                "Content-Disposition"?: string;
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the interop version, 8; another is refused (412), none gets no 104 */
                "Upload-Draft-Interop-Version"?: 8;
                /** @description tus creation: `filename <base64>,filetype <base64>` */
                "Upload-Metadata"?: string;
                /** @description tus creation: 1, the length comes later */
                "Upload-Defer-Length"?: string;
                /** @description tus creation: 1.0.0 */
                "Tus-Resumable"?: string;
            };
            path: {
                attachmentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The file
                     */
                    file: Blob;
                };
            };
        };
        responses: {
            /** @description Replaced: the record, with the same id, of the new file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileRecord"];
                };
            };
            /** @description Created: the record */
            201: {
                headers: {
                    /** @description tus creation: the upload resource (no body then) */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileRecord"];
                };
            };
            /** @description Bad id, no `file` part, malformed multipart, too many parts for a single field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such article */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The multi field already holds its maxCount files; tus, IETF draft: counting the uploads under way into it, and a single field takes one at a time */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description tus: Tus-Resumable is not 1.0.0; IETF draft: Upload-Draft-Interop-Version is not ours */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description A file exceeds the field maxSize or MAX_FILE_SIZE, or an image the field's maxPixels or, in a field with variants, the memory IMAGE_DECODE_BYTES allows for decoding it */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not multipart/form-data, a file type the field does not accept, or an image a field with variants cannot read */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description UPLOADS_PER_PRINCIPAL uploads of this client are in flight; tus, IETF draft: it holds OPEN_UPLOADS_PER_PRINCIPAL unfinished uploads, or they declare OPEN_UPLOAD_BYTES_PER_PRINCIPAL; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description tus, IETF draft: the storage keeps no resumable uploads */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not available at the moment; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The file storage is full */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    uploadArticleAttachments: {
        parameters: {
            query?: never;
            header?: {
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): `?1` this request carries the whole file (its answer is the record), `?0` more follows */
                "Upload-Complete"?: "?1" | "?0";
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15) too: the whole length in bytes */
                "Upload-Length"?: string;
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the file's name, `inline; filename="photo.png"` */
                "Content-Disposition"?: string;
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the interop version, 8; another is refused (412), none gets no 104 */
                "Upload-Draft-Interop-Version"?: 8;
                /** @description tus creation: `filename <base64>,filetype <base64>` */
                "Upload-Metadata"?: string;
                /** @description tus creation: 1, the length comes later */
                "Upload-Defer-Length"?: string;
                /** @description tus creation: 1.0.0 */
                "Tus-Resumable"?: string;
            };
            path: {
                attachmentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** @description One part per file (at most 10), appended in their order */
                    file: Blob[];
                };
            };
        };
        responses: {
            /** @description Appended: one `file` part answers its record, several an array of theirs, in order */
            201: {
                headers: {
                    /** @description tus creation: the upload resource (no body then) */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileRecord"] | components["schemas"]["FileRecord"][];
                };
            };
            /** @description Bad id, no `file` part, malformed multipart, too many parts for a single field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such article */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The multi field already holds its maxCount files; tus, IETF draft: counting the uploads under way into it, and a single field takes one at a time */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description tus: Tus-Resumable is not 1.0.0; IETF draft: Upload-Draft-Interop-Version is not ours */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description A file exceeds the field maxSize or MAX_FILE_SIZE, or an image the field's maxPixels or, in a field with variants, the memory IMAGE_DECODE_BYTES allows for decoding it */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not multipart/form-data, a file type the field does not accept, or an image a field with variants cannot read */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description UPLOADS_PER_PRINCIPAL uploads of this client are in flight; tus, IETF draft: it holds OPEN_UPLOADS_PER_PRINCIPAL unfinished uploads, or they declare OPEN_UPLOAD_BYTES_PER_PRINCIPAL; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description tus, IETF draft: the storage keeps no resumable uploads */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not available at the moment; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The file storage is full */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    uploadProductCover: {
        parameters: {
            query?: never;
            header?: {
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): `?1` this request carries the whole file (its answer is the record), `?0` more follows */
                "Upload-Complete"?: "?1" | "?0";
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15) too: the whole length in bytes */
                "Upload-Length"?: string;
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the file's name, `inline; filename="photo.png"` */
                "Content-Disposition"?: string;
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the interop version, 8; another is refused (412), none gets no 104 */
                "Upload-Draft-Interop-Version"?: 8;
                /** @description tus creation: `filename <base64>,filetype <base64>` */
                "Upload-Metadata"?: string;
                /** @description tus creation: 1, the length comes later */
                "Upload-Defer-Length"?: string;
                /** @description tus creation: 1.0.0 */
                "Tus-Resumable"?: string;
            };
            path: {
                attachmentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The file
                     */
                    file: Blob;
                };
            };
        };
        responses: {
            /** @description Replaced: the record, with the same id, of the new file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileRecord"];
                };
            };
            /** @description Created: the record */
            201: {
                headers: {
                    /** @description tus creation: the upload resource (no body then) */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileRecord"];
                };
            };
            /** @description Bad id, no `file` part, malformed multipart, too many parts for a single field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such product */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The multi field already holds its maxCount files; tus, IETF draft: counting the uploads under way into it, and a single field takes one at a time */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description tus: Tus-Resumable is not 1.0.0; IETF draft: Upload-Draft-Interop-Version is not ours */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description A file exceeds the field maxSize or MAX_FILE_SIZE, or an image the field's maxPixels or, in a field with variants, the memory IMAGE_DECODE_BYTES allows for decoding it */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not multipart/form-data, a file type the field does not accept, or an image a field with variants cannot read */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description UPLOADS_PER_PRINCIPAL uploads of this client are in flight; tus, IETF draft: it holds OPEN_UPLOADS_PER_PRINCIPAL unfinished uploads, or they declare OPEN_UPLOAD_BYTES_PER_PRINCIPAL; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description tus, IETF draft: the storage keeps no resumable uploads */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not available at the moment; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The file storage is full */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    uploadProductGallery: {
        parameters: {
            query?: never;
            header?: {
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): `?1` this request carries the whole file (its answer is the record), `?0` more follows */
                "Upload-Complete"?: "?1" | "?0";
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15) too: the whole length in bytes */
                "Upload-Length"?: string;
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the file's name, `inline; filename="photo.png"` */
                "Content-Disposition"?: string;
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the interop version, 8; another is refused (412), none gets no 104 */
                "Upload-Draft-Interop-Version"?: 8;
                /** @description tus creation: `filename <base64>,filetype <base64>` */
                "Upload-Metadata"?: string;
                /** @description tus creation: 1, the length comes later */
                "Upload-Defer-Length"?: string;
                /** @description tus creation: 1.0.0 */
                "Tus-Resumable"?: string;
            };
            path: {
                attachmentId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** @description One part per file (at most 20), appended in their order */
                    file: Blob[];
                };
            };
        };
        responses: {
            /** @description Appended: one `file` part answers its record, several an array of theirs, in order */
            201: {
                headers: {
                    /** @description tus creation: the upload resource (no body then) */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileRecord"] | components["schemas"]["FileRecord"][];
                };
            };
            /** @description Bad id, no `file` part, malformed multipart, too many parts for a single field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such product */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The multi field already holds its maxCount files; tus, IETF draft: counting the uploads under way into it, and a single field takes one at a time */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description tus: Tus-Resumable is not 1.0.0; IETF draft: Upload-Draft-Interop-Version is not ours */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description A file exceeds the field maxSize or MAX_FILE_SIZE, or an image the field's maxPixels or, in a field with variants, the memory IMAGE_DECODE_BYTES allows for decoding it */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not multipart/form-data, a file type the field does not accept, or an image a field with variants cannot read */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description UPLOADS_PER_PRINCIPAL uploads of this client are in flight; tus, IETF draft: it holds OPEN_UPLOADS_PER_PRINCIPAL unfinished uploads, or they declare OPEN_UPLOAD_BYTES_PER_PRINCIPAL; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description tus, IETF draft: the storage keeps no resumable uploads */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not available at the moment; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The file storage is full */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    terminateTusUpload: {
        parameters: {
            query?: never;
            header?: {
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the interop version, 8; another is refused (412), none gets no 104 */
                "Upload-Draft-Interop-Version"?: 8;
                /** @description tus: the version, 1.0.0 (required by tus; the IETF draft sends none) */
                "Tus-Resumable"?: string;
            };
            path: {
                /** @description The id from the Location the creation answered */
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): Upload-Draft-Interop-Version is not an Integer */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such upload, or another principal's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The upload expired */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Tus-Resumable is not 1.0.0 (Tus-Version names the versions spoken), or the IETF draft interop version is not ours */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description A request is appending to this upload */
            423: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    discoverTusUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id from the Location the creation answered */
                uploadId: unknown;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The headers say it */
            204: {
                headers: {
                    /** @description 1.0.0 */
                    "Tus-Version"?: string;
                    /** @description creation,creation-with-upload,creation-defer-length,termination,expiration,checksum */
                    "Tus-Extension"?: string;
                    /** @description MAX_FILE_SIZE */
                    "Tus-Max-Size"?: string;
                    /** @description sha1,sha256,sha512,md5 */
                    "Tus-Checksum-Algorithm"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getTusUploadOffset: {
        parameters: {
            query?: never;
            header?: {
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the interop version, 8; another is refused (412), none gets no 104 */
                "Upload-Draft-Interop-Version"?: 8;
                /** @description tus: the version, 1.0.0 (required by tus; the IETF draft sends none) */
                "Tus-Resumable"?: string;
            };
            path: {
                /** @description The id from the Location the creation answered */
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload state, in headers (Cache-Control: no-store) */
            200: {
                headers: {
                    /** @description Bytes stored */
                    "Upload-Offset"?: string;
                    /** @description The whole length, once known */
                    "Upload-Length"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the upload state, in headers (Cache-Control: no-store) */
            204: {
                headers: {
                    /** @description ?0: an upload exists until it completes (then 404) */
                    "Upload-Complete"?: string;
                    /** @description Bytes stored */
                    "Upload-Offset"?: string;
                    /** @description The whole length, once known */
                    "Upload-Length"?: string;
                    /** @description `max-size=<bytes>, max-age=<seconds left>` */
                    "Upload-Limit"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): Upload-Draft-Interop-Version is not an Integer */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such upload, or another principal's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The upload expired */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Tus-Resumable is not 1.0.0 (Tus-Version names the versions spoken), or the IETF draft interop version is not ours */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    appendTusUpload: {
        parameters: {
            query?: never;
            header: {
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): `?1` this body ends the file, `?0` more follows */
                "Upload-Complete"?: "?1" | "?0";
                /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the interop version, 8; another is refused (412), none gets no 104 */
                "Upload-Draft-Interop-Version"?: 8;
                /** @description `<algorithm> <base64 digest>` of this body */
                "Upload-Checksum"?: string;
                /** @description Where this body starts */
                "Upload-Offset": string;
                /** @description tus: the version, 1.0.0 (required by tus; the IETF draft sends none) */
                "Tus-Resumable"?: string;
            };
            path: {
                /** @description The id from the Location the creation answered */
                uploadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the upload completed replacing a single field's file (Upload-Complete: ?1) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileRecord"];
                };
            };
            /** @description IETF draft (draft-ietf-httpbis-resumable-upload-15): the upload completed into a new file record (Upload-Complete: ?1) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileRecord"];
                };
            };
            /** @description Appended */
            204: {
                headers: {
                    /** @description Bytes stored now */
                    "Upload-Offset"?: string;
                    /** @description When an unfinished upload expires */
                    "Upload-Expires"?: string;
                    /** @description The file record, once the upload completed */
                    "File-Id"?: string;
                    /** @description IETF draft: ?0, more may follow */
                    "Upload-Complete"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A malformed upload header, or a body that broke off (what arrived is kept) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such upload, or another principal's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Upload-Offset is not the upload's offset (the draft's answer names it), or the multi field is full */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The upload expired */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Tus-Resumable is not 1.0.0 (Tus-Version names the versions spoken), or the IETF draft interop version is not ours */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description More bytes than the upload length, or a file over the field's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not application/offset+octet-stream (tus) or application/partial-upload (draft), or a refused type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Another request is appending to this upload */
            423: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description UPLOADS_PER_PRINCIPAL uploads of this client are in flight; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Upload-Checksum does not match the body, which was discarded */
            460: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not available at the moment; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The file storage is full */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileRecord"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such file, or no permission to read files of its entity type */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    deleteFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such file, or neither read nor write permission on its entity type */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Concurrent changes to the same data collided twice; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    downloadFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bytes, as the stored type */
            200: {
                headers: {
                    /** @description Strong validator of the content */
                    ETag?: string;
                    "Last-Modified"?: string;
                    "Accept-Ranges"?: "bytes";
                    /** @description attachment, with the original name */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "*/*": Blob;
                };
            };
            /** @description The requested byte range */
            206: {
                headers: {
                    /** @description Strong validator of the content */
                    ETag?: string;
                    "Last-Modified"?: string;
                    "Accept-Ranges"?: "bytes";
                    /** @description attachment, with the original name */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "*/*": Blob;
                };
            };
            /** @description If-None-Match matched: the copy the client holds is current */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such file, or no permission to read files of its entity type */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Range header cannot be satisfied */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not available at the moment; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    downloadFileVariant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The variant, as its type */
            200: {
                headers: {
                    /** @description Strong validator of the content */
                    ETag?: string;
                    "Last-Modified"?: string;
                    "Accept-Ranges"?: "bytes";
                    /** @description attachment, with the original name */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "*/*": Blob;
                };
            };
            /** @description The requested byte range */
            206: {
                headers: {
                    /** @description Strong validator of the content */
                    ETag?: string;
                    "Last-Modified"?: string;
                    "Accept-Ranges"?: "bytes";
                    /** @description attachment, with the original name */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "*/*": Blob;
                };
            };
            /** @description If-None-Match matched: the copy the client holds is current */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such file, or no permission to read files of its entity type; a variant its field does not declare, or a file no variant can be made of */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Range header cannot be satisfied */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not available at the moment; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    reorderFiles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                attachmentType: "article" | "product";
                attachmentId: number;
                fieldName: "attachments" | "gallery";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReorderFiles"];
            };
        };
        responses: {
            /** @description The field in its new order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileRecord"][];
                };
            };
            /** @description Invalid body or id, or not a multi field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Unknown attachment type or field, or no such entity */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The ids are not exactly the files the field holds now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Concurrent changes to the same data collided twice; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    downloadSignedFile: {
        parameters: {
            query: {
                /** @description A variant of the file (e.g. `thumb`) */
                variant?: string;
                /** @description Expiry, Unix time in seconds */
                expires: number;
                /** @description HMAC-SHA256, base64url */
                signature: string;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bytes, as the stored type */
            200: {
                headers: {
                    /** @description Strong validator of the content */
                    ETag?: string;
                    "Last-Modified"?: string;
                    "Accept-Ranges"?: "bytes";
                    /** @description attachment, with the original name */
                    "Content-Disposition"?: string;
                    /** @description `private, max-age=<seconds until the URL expires>` */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "*/*": Blob;
                };
            };
            /** @description The requested byte range */
            206: {
                headers: {
                    /** @description Strong validator of the content */
                    ETag?: string;
                    "Last-Modified"?: string;
                    "Accept-Ranges"?: "bytes";
                    /** @description attachment, with the original name */
                    "Content-Disposition"?: string;
                    /** @description `private, max-age=<seconds until the URL expires>` */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "*/*": Blob;
                };
            };
            /** @description If-None-Match matched: the copy the client holds is current */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description The URL expired, was altered, or names bytes its file no longer has (replaced or deleted since) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The Range header cannot be satisfied */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Not available at the moment; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listProducts: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description Only those whose name contains this text, in any case (`%` and `_` are literal) */
                q?: string;
                /** @description The order: a property, descending with a leading `-`; ties in id order, the same way. Default: `id`. */
                sort?: components["schemas"]["ProductSort"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductPage"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    createProduct: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateProduct"];
            };
        };
        responses: {
            /** @description Created; its file fields are empty */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such product */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    deleteProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such product */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Concurrent changes to the same data collided twice; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    updateProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateProduct"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such product */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Concurrent changes to the same data collided twice; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    listArticles: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description Only those whose title contains this text, in any case (`%` and `_` are literal) */
                q?: string;
                /** @description The order: a property, descending with a leading `-`; ties in id order, the same way. Default: `id`. */
                sort?: components["schemas"]["ArticleSort"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArticlePage"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    createArticle: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateArticle"];
            };
        };
        responses: {
            /** @description Created; its file fields are empty */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Article"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    getArticle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Article"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such article */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    deleteArticle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such article */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Concurrent changes to the same data collided twice; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    updateArticle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateArticle"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Article"];
                };
            };
            /** @description The request is invalid: the problem names each offending field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblemDetails"];
                };
            };
            /** @description Missing, malformed, expired or revoked access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description The token lacks the permission */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description No such article */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
            /** @description Concurrent changes to the same data collided twice; retry after the Retry-After header */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
    checkHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Both checks passed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description A check failed: the problem holds `checks` and a short reason per failed check in `reasons` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ProblemDetails"];
                };
            };
        };
    };
}
