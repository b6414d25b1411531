import { Module, type DynamicModule } from '@nestjs/common';
import { FileFieldsModule, type ServedType } from '@file-fields/nest';
import { Audited, AuditModule } from '../audit/index.js';

/** `CatalogModule.forRoot`: the types served, and the migrations that create their tables. */
export interface CatalogOptions {
  types: ServedType[];
  migrations?: Function[];
}

/**
 * The service's entities with file fields, served over REST by @file-fields/nest's standard routes (list, read,
 * create, update, delete under each type's collectionPath, guarded by `<type>:read` and `<type>:write`), their writes
 * recorded in the audit trail.
 */
@Module({})
export class CatalogModule {
  static forRoot({ types, migrations = [] }: CatalogOptions): DynamicModule {
    return {
      module: CatalogModule,
      imports: [
        FileFieldsModule.forFeature({
          types,
          migrations,
          imports: [AuditModule],
          decorateWrite: (write, type) => Audited(`${type}.${write}`, type),
        }),
      ],
    };
  }
}
