import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadAppConfig } from './src/config/environment.js';
import { buildDataSourceOptions } from './src/database/data-source-options.js';

/** The DataSource the TypeORM CLI uses (`npm run typeorm -- migration:run`); the service builds the same one. */
export default new DataSource(buildDataSourceOptions(loadAppConfig()));
