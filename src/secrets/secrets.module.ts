import { Module } from '@nestjs/common';
import { AppConfig } from '../config/environment.js';
import { SecretBox } from './secret-box.js';
import { secretBoxFromEnvironment } from './secrets-key.js';

/** Provides the {@link SecretBox} on SECRETS_KEY (or the generated key file); the start fails without a usable key. */
@Module({
  providers: [{ provide: SecretBox, inject: [AppConfig], useFactory: secretBoxFromEnvironment }],
  exports: [SecretBox],
})
export class SecretsModule {}
