import { Module } from '@nestjs/common';

/** OAuth 2.0 token endpoint, integrations, users, roles and the global access guard. */
@Module({})
export class TokenModule {}
