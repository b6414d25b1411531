import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';

/** `/health`: the database and the file storage (provided by the file-field framework, which is global). */
@Module({ controllers: [HealthController] })
export class HealthModule {}
