import 'reflect-metadata';
import { DataSource } from 'typeorm';
// Loading the application module registers every feature's entities and migrations (DatabaseModule.forFeature).
import './src/app.module.js';
import { loadAppConfig } from './src/config/environment.js';
import { buildDataSourceOptions } from './src/database/data-source-options.js';

/** The DataSource the TypeORM CLI uses (`npm run typeorm -- migration:run`); the service builds the same one. */
export default new DataSource(buildDataSourceOptions(loadAppConfig()));
