import { Global, Module, type DynamicModule } from '@nestjs/common';
import { AppConfig, loadAppConfig } from './environment.js';

/** Validates the environment once at start and provides the typed {@link AppConfig} everywhere. */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: () => loadAppConfig() }],
  exports: [AppConfig],
})
export class AppConfigModule {}

/** A feature's settings made by {@link featureConfig}: its `KEY`, and the factory that takes the app-wide values. */
type FeatureConfigFactory = ((app?: AppConfig) => unknown) & { KEY: string | symbol };

/** Provides a feature's settings (inject them with `@Inject(config.KEY)`), built on the app-wide {@link AppConfig}. */
@Module({})
export class SettingsModule {
  static forFeature(config: FeatureConfigFactory): DynamicModule {
    return {
      module: SettingsModule,
      providers: [{ provide: config.KEY, useFactory: (app: AppConfig) => config(app), inject: [AppConfig] }],
      exports: [config.KEY],
    };
  }
}
