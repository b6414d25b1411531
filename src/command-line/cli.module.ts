import { Module } from '@nestjs/common';
import { ClockModule } from '@file-fields/nest';
import { SettingsModule } from '../config/config.module.js';
import { TokenCliModule } from '../token/index.js';
import { WebhookSigningKeys, webhooksConfig } from '../webhooks/index.js';

/** What the command line needs, without the HTTP layer: the token administration and the webhooks' signing keys. */
@Module({
  imports: [TokenCliModule, ClockModule, SettingsModule.forFeature(webhooksConfig)],
  providers: [WebhookSigningKeys],
})
export class CliModule {}
