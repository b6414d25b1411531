/** `/health`: the database and the file storage. */
export { HealthModule } from './health.module.js';
