import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/environment.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { schemaRegistry, type FeatureSchema, UnitOfWork } from '@file-fields/nest';

/** The DataSource (migrations run at start, never synchronize) and the unit of work every write goes through. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ ...buildDataSourceOptions(config), migrationsRun: true }),
    }),
  ],
  providers: [UnitOfWork],
  exports: [UnitOfWork],
})
export class DatabaseModule {
  /** A feature's entities (with their repositories) and migrations; call it in the feature module's `imports`. */
  static forFeature(schema: FeatureSchema): DynamicModule {
    schemaRegistry.register(schema);
    return TypeOrmModule.forFeature(schema.entities);
  }
}
