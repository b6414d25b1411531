import { Module } from '@nestjs/common';

/** Signed, retried, durable webhook delivery. */
@Module({})
export class WebhooksModule {}
