import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/environment.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { UnitOfWork } from './unit-of-work.js';

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
export class DatabaseModule {}
