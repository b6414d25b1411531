import { Module, type DynamicModule } from '@nestjs/common';
import { getRepositoryToken } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AuditModule } from '../audit/index.js';
import { DatabaseModule } from '../database/database.module.js';
import { UnitOfWork } from '@file-fields/nest';
import type { ListSpec } from '@file-fields/nest';
import { createCatalogController, type CatalogResource } from './catalog.controller.js';
import { CatalogService, type CatalogEntity } from './catalog.service.js';
import { catalogResourceOf, type CatalogType } from './catalog-type.js';

/** `CatalogModule.forRoot`: the types served, and the migrations that create their tables. */
export interface CatalogOptions {
  types: CatalogType[];
  migrations?: Function[];
}

const serviceFor = ({ service, entity, label, list }: CatalogResource) => ({
  provide: service,
  inject: [getRepositoryToken(entity), UnitOfWork],
  useFactory: (repository: Repository<CatalogEntity>, unitOfWork: UnitOfWork) =>
    new CatalogService(repository, unitOfWork, label, list as ListSpec<CatalogEntity>),
});

/**
 * Entities with file fields served over REST: for each listed type, a list (a page, searched and sorted), read,
 * create, update and delete under its collectionPath, guarded by `<type>:read` and `<type>:write`, documented in the
 * OpenAPI document (hence in the administration UI), its writes in the audit trail.
 */
@Module({})
export class CatalogModule {
  static forRoot({ types, migrations = [] }: CatalogOptions): DynamicModule {
    const resources = types.map(catalogResourceOf);
    return {
      module: CatalogModule,
      imports: [
        DatabaseModule.forFeature({ entities: resources.map((resource) => resource.entity), migrations }),
        // Creating, changing and deleting content is recorded in the audit trail (@Audited()).
        AuditModule,
      ],
      controllers: resources.map(createCatalogController),
      providers: resources.map(serviceFor),
    };
  }
}
