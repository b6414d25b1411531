import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';

/** `/health`: the database, the file storage and the read cache (from the file-field framework, which is global). */
@Module({ controllers: [HealthController] })
export class HealthModule {}
