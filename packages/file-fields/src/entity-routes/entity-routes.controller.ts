import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Query,
  UseGuards,
  type Type,
} from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators.js';
import { PermissionGuard } from '../auth/permission.guard.js';
import { ParseIdPipe } from '../common/parse-id.pipe.js';
import { createValidationPipe } from '../common/validation.js';
import { sortValuesOf, type ListSpec, type Page } from '../database/list-page.js';
import { TRANSACTION_CONFLICT_RESPONSE } from '../database/transaction-conflict.js';
import { ApiProblems } from '../openapi/api-problems.js';
import { listQueryOf } from '../openapi/list-query.dto.js';
import { pageSchemaOf } from '../openapi/page.dto.js';
import { CacheableRead } from '../read-cache/cacheable-read.js';
import type { EntityService, ServedEntity } from './entity.service.js';

/** What a write route does, for {@link WriteDecorator}. */
export type EntityWrite = 'create' | 'update' | 'delete';

/**
 * The host's own decorator for each write route of a served type (e.g. its audit trail's), given what the route does
 * and the type's name.
 */
export type WriteDecorator = (write: EntityWrite, type: string) => MethodDecorator;

/** The routes of one served type, from its entity and what its listing says otherwise. */
export interface EntityRoutes {
  /** Collection path, e.g. `products`. */
  path: string;
  /** Singular label for messages and docs. */
  label: string;
  /** DI token of the type's {@link EntityService}. */
  service: symbol;
  /** The entity class: the response schema, its file fields included. */
  entity: Type<ServedEntity>;
  createDto: Type<object>;
  updateDto: Type<object>;
  /** What `q` searches and what `sort` may name. */
  list: ListSpec<never>;
  /** The searched properties, for people: e.g. `name`. */
  searchedIn: string;
}

const noDecorator: MethodDecorator = () => undefined;

/** Builds the REST controller of one served type: five thin handlers over its EntityService. */
export function createEntityController(resource: EntityRoutes, decorateWrite?: WriteDecorator): Type<unknown> {
  const wrote = (write: EntityWrite) => decorateWrite?.(write, resource.label) ?? noDecorator;
  const read = RequirePermission(`${resource.label}:read`);
  const write = RequirePermission(`${resource.label}:write`);
  const one = `${resource.label[0].toUpperCase()}${resource.label.slice(1)}`;
  const all = `${resource.path[0].toUpperCase()}${resource.path.slice(1)}`;
  const missing: [number, string] = [404, `No such ${resource.label}`];
  const aLabel = `${/^[aeio]/i.test(resource.label) ? 'an' : 'a'} ${resource.label}`;
  const { list, searchedIn } = resource;
  class ListQuery extends listQueryOf({
    name: one,
    sorts: sortValuesOf(list),
    defaultSort: list.defaultSort,
    searchedIn,
  }) {}
  const PageSchema = pageSchemaOf(resource.entity, one, `A page of ${resource.path}, files resolved`);

  @ApiTags(resource.path)
  @Controller(resource.path)
  @UseGuards(PermissionGuard)
  class EntityController {
    constructor(@Inject(resource.service) private readonly entities: EntityService<ServedEntity>) {}

    @Get()
    @read
    @CacheableRead()
    @ApiOperation({
      operationId: `list${all}`,
      summary: `List ${resource.path} with their files: a page, searched by ${searchedIn}, in id order or another`,
    })
    @ApiOkResponse({ type: PageSchema })
    @ApiProblems(400)
    list(@Query() query: ListQuery): Promise<Page<ServedEntity>> {
      return this.entities.list(query);
    }

    @Get(':id')
    @read
    @CacheableRead()
    @ApiOperation({ operationId: `get${one}`, summary: `Get one ${resource.label} with its files` })
    @ApiOkResponse({ type: resource.entity })
    @ApiProblems(400, missing)
    get(@Param('id', ParseIdPipe) id: number): Promise<ServedEntity> {
      return this.entities.get(id);
    }

    @Post()
    @write
    @wrote('create')
    @ApiOperation({ operationId: `create${one}`, summary: `Create ${aLabel}` })
    @ApiBody({ type: resource.createDto })
    @ApiCreatedResponse({ type: resource.entity, description: 'Created; its file fields are empty' })
    @ApiProblems(400)
    create(@Body(createValidationPipe(resource.createDto)) body: object): Promise<ServedEntity> {
      return this.entities.create(body);
    }

    @Patch(':id')
    @write
    @wrote('update')
    @ApiOperation({
      operationId: `update${one}`,
      summary: `Update ${aLabel}; omitted properties keep their value`,
    })
    @ApiBody({ type: resource.updateDto })
    @ApiOkResponse({ type: resource.entity, description: 'Updated' })
    @ApiProblems(400, missing, TRANSACTION_CONFLICT_RESPONSE)
    update(
      @Param('id', ParseIdPipe) id: number,
      @Body(createValidationPipe(resource.updateDto)) body: object,
    ): Promise<ServedEntity> {
      return this.entities.update(id, body);
    }

    @Delete(':id')
    @write
    @HttpCode(204)
    @wrote('delete')
    @ApiOperation({ operationId: `delete${one}`, summary: `Delete ${aLabel} and its files` })
    @ApiNoContentResponse({ description: 'Deleted' })
    @ApiProblems(400, missing, TRANSACTION_CONFLICT_RESPONSE)
    remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
      return this.entities.remove(id);
    }
  }
  Object.defineProperty(EntityController, 'name', { value: `${one}Controller` });
  return EntityController;
}
