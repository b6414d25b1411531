import { Module, type DynamicModule, type ModuleMetadata, type OnModuleInit, type Type } from '@nestjs/common';
import { getDataSourceToken, getRepositoryToken, TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import type { ListSpec } from '../database/list-page.js';
import { schemaRegistry } from '../database/schema-registry.js';
import { UnitOfWork } from '../database/unit-of-work.js';
import { uncountedOf } from '../read-cache/data-changes.js';
import { createEntityController, type EntityRoutes, type WriteDecorator } from './entity-routes.controller.js';
import { EntityService, type ServedEntity } from './entity.service.js';
import { entityRoutesOf, type ServedType } from './served-type.js';

/** `FileFieldsModule.forFeature`: the types served, and what the host adds to their routes. */
export interface ServedTypesOptions extends Pick<ModuleMetadata, 'imports'> {
  /** Entity classes with `@AttachmentType(name, { collectionPath })`, or `{ type, createDto, updateDto, list }`. */
  types: ServedType[];
  /** The migrations that create their tables, for a host whose DataSource reads `schemaRegistry`. */
  migrations?: Function[];
  /** The host's decorator for each write route (e.g. its audit trail's); `imports` brings what it injects. */
  decorateWrite?: WriteDecorator;
}

const serviceFor = ({ service, entity, label, list }: EntityRoutes) => ({
  provide: service,
  inject: [getRepositoryToken(entity), UnitOfWork],
  useFactory: (repository: Repository<ServedEntity>, unitOfWork: UnitOfWork) =>
    new EntityService(repository, unitOfWork, label, list as ListSpec<ServedEntity>),
});

/**
 * Refuses to start while a served type's table is not counted: its reads are kept (`@CacheableRead()`) until the
 * data they are made from changes, which only counted tables tell.
 */
class CountedTables implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly entities: Type<ServedEntity>[],
  ) {}

  async onModuleInit(): Promise<void> {
    const tables = this.entities.map((entity) => this.dataSource.getMetadata(entity).tableName);
    const uncounted = await uncountedOf(this.dataSource, tables);
    if (uncounted.length === 0) return;
    const list = uncounted.map((table) => `'${table}'`).join(', ');
    throw new Error(
      `FileFieldsModule.forFeature: the changes of ${list} are not counted, so kept answers of their routes could ` +
        `outlive a change. Count them in a migration: await countChangesOf(queryRunner, [${list}]).`,
    );
  }
}

/**
 * Entities with file fields served over REST: for each listed type, a list (a page, searched and sorted), read,
 * create, update and delete under its collectionPath, guarded by `<type>:read` and `<type>:write`, documented in the
 * OpenAPI document (hence in an administration UI made from it).
 */
@Module({})
export class ServedTypesModule {
  static forTypes({ types, migrations = [], decorateWrite, imports = [] }: ServedTypesOptions): DynamicModule {
    const routes = types.map(entityRoutesOf);
    const entities = routes.map((route) => route.entity);
    schemaRegistry.register({ entities, migrations });
    return {
      module: ServedTypesModule,
      imports: [TypeOrmModule.forFeature(entities), ...imports],
      controllers: routes.map((route) => createEntityController(route, decorateWrite)),
      providers: [
        UnitOfWork,
        ...routes.map(serviceFor),
        {
          provide: CountedTables,
          inject: [getDataSourceToken()],
          useFactory: (dataSource: DataSource) => new CountedTables(dataSource, entities),
        },
      ],
    };
  }
}
