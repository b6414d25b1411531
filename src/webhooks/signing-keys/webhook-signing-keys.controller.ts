import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiProblems, Public, RequirePermission } from '@file-fields/nest';
import { Audited } from '../../audit/index.js';
import { KeySetDocument } from '../../common/http/key-set-document.js';
import { JsonWebKeySetSchema } from '../../token/index.js';
import { WebhookSigningKeyDto } from './webhook-signing-key-view.dto.js';
import { WEBHOOK_KEYS_PATH, WebhookSigningKeys } from './webhook-signing-keys.js';

/**
 * The public half of the `v1a` signing keys, for receivers (a JWK Set anyone may fetch), and their administration:
 * the keys in use and an immediate rotation.
 */
@ApiTags('webhooks')
@Controller()
export class WebhookSigningKeysController {
  private readonly keySet = new KeySetDocument();

  constructor(private readonly keys: WebhookSigningKeys) {}

  @Get(WEBHOOK_KEYS_PATH)
  @Public()
  @ApiOperation({
    operationId: 'getWebhookKeys',
    summary: 'The public keys that verify `v1a` (Ed25519) webhook signatures, as a JWK Set (RFC 7517)',
    description:
      'Upcoming, signing and recently retired keys; each delivery names its key in `webhook-key-id`. A new key is ' +
      'published here WEBHOOK_SIGNING_KEY_PREPUBLISH before it signs.',
  })
  @ApiOkResponse({ type: JsonWebKeySetSchema })
  @ApiResponse({ status: 304, description: 'If-None-Match matched: the copy the client holds is current' })
  jwks(@Req() req: Request, @Res() res: Response): void {
    this.keySet.send(this.keys.jwks(), req, res);
  }

  @Get('api/webhooks/signing-keys')
  @RequirePermission('webhook:write')
  @ApiOkResponse({ type: [WebhookSigningKeyDto] })
  @ApiOperation({ operationId: 'listWebhookSigningKeys', summary: 'The published `v1a` signing keys and their state' })
  @ApiProblems()
  list(): WebhookSigningKeyDto[] {
    const signing = this.keys.current();
    return this.keys.publishedKeys().map((key) => WebhookSigningKeyDto.from(key, signing));
  }

  @Post('api/webhooks/signing-keys/rotate')
  // Administrators only (`*`): a permission is `<resource>:<read|write>`, and one that is not (e.g. `webhook:admin`)
  // stops the service at start (PermissionCatalog).
  @RequirePermission('*')
  @Audited('webhook-signing-key.rotate', 'webhook-signing-key')
  @HttpCode(201)
  @ApiCreatedResponse({ type: WebhookSigningKeyDto })
  @ApiOperation({
    operationId: 'rotateWebhookSigningKey',
    summary: 'Add a `v1a` signing key: published now, signing from WEBHOOK_SIGNING_KEY_PREPUBLISH on',
    description:
      'The key signing now retires when the new one starts, and stays published until every attempt it signed has ' +
      'ended. `npm run cli -- rotate-webhook-signing-key` does the same.',
  })
  @ApiProblems()
  async rotate(): Promise<WebhookSigningKeyDto> {
    // A random kid: only the scheduled rotation's derived kids can be taken.
    const rotated = await this.keys.rotate();
    const key = this.keys.publishedKeys().find((candidate) => candidate.kid === rotated?.kid);
    if (!key) throw new Error('The new webhook signing key could not be stored');
    return WebhookSigningKeyDto.from(key, this.keys.current());
  }
}
