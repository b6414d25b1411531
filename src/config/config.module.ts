import { Global, Module } from '@nestjs/common';
import { AppConfig, loadAppConfig } from './environment.js';

/** Validates the environment once at start and provides the typed {@link AppConfig} everywhere. */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: () => loadAppConfig() }],
  exports: [AppConfig],
})
export class AppConfigModule {}
