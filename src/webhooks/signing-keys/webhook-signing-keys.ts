import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '@file-fields/nest';
import { KeyRing, SigningKeysRepository } from '../../token/index.js';
import { webhooksConfig, type WebhooksConfig } from '../webhooks.config.js';

/** The path of the webhook signing keys' JWK Set, beside the access tokens' (`/.well-known/jwks.json`). */
export const WEBHOOK_KEYS_PATH = '.well-known/webhook-keys.json';

/** How far from now a Standard Webhooks verifier accepts a `webhook-timestamp` (its libraries' default). */
const VERIFIER_TOLERANCE_MS = 5 * 60_000;

/**
 * The Ed25519 keys that sign `v1a` signatures, shared by every instance: a new one is published
 * WEBHOOK_SIGNING_KEY_PREPUBLISH before it signs (on demand, or every WEBHOOK_SIGNING_KEY_ROTATION), and the one it
 * replaces stays published until every attempt it signed has ended and its timestamp left the verifiers' tolerance
 * (WEBHOOK_TIMEOUT + 5 minutes after it stopped signing). A retry is signed anew, with the key signing then.
 */
@Injectable()
export class WebhookSigningKeys extends KeyRing implements OnModuleInit {
  constructor(repository: SigningKeysRepository, clock: Clock, @Inject(webhooksConfig.KEY) config: WebhooksConfig) {
    super(repository, clock, {
      purpose: 'webhook',
      algorithm: 'EdDSA',
      prepublishMs: config.signingKeyPrepublishMs,
      rotationMs: config.signingKeyRotationMs,
      retainMs: config.timeoutMs + VERIFIER_TOLERANCE_MS,
    });
  }
}
