import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, type Type } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Audited } from '../audit/index.js';
import {
  RequirePermission,
  ApiProblems,
  ParseIdPipe,
  TRANSACTION_CONFLICT_RESPONSE,
  sortValuesOf,
  type ListSpec,
  type Page,
  CacheableRead,
} from '@file-fields/nest';
import { createValidationPipe } from '../common/pipes/validation.js';
import { listQueryOf } from '../common/dto/list-query.dto.js';
import { pageSchemaOf } from '../common/dto/page.dto.js';
import type { CatalogEntity, CatalogService } from './catalog.service.js';

export interface CatalogResource {
  /** Collection path, e.g. `products`. */
  path: string;
  /** Singular label for messages and docs. */
  label: string;
  /** DI token of the resource's {@link CatalogService}. */
  service: symbol;
  /** The entity class: the response schema, its file fields included. */
  entity: Type<CatalogEntity>;
  createDto: Type<object>;
  updateDto: Type<object>;
  /** What `q` searches and what `sort` may name. */
  list: ListSpec<never>;
  /** The searched properties, for people: e.g. `name`. */
  searchedIn: string;
}

/** Builds the REST controller of one example collection: five thin handlers over its CatalogService. */
export function createCatalogController(resource: CatalogResource): Type<unknown> {
  const read = RequirePermission(`${resource.label}:read`);
  const write = RequirePermission(`${resource.label}:write`);
  const one = `${resource.label[0].toUpperCase()}${resource.label.slice(1)}`;
  const all = `${resource.path[0].toUpperCase()}${resource.path.slice(1)}`;
  const missing: [number, string] = [404, `No such ${resource.label}`];
  const aLabel = `${/^[aeio]/i.test(resource.label) ? 'an' : 'a'} ${resource.label}`;
  const { list, searchedIn } = resource;
  class CatalogListQuery extends listQueryOf({
    name: one,
    sorts: sortValuesOf(list),
    defaultSort: list.defaultSort,
    searchedIn,
  }) {}
  const PageSchema = pageSchemaOf(resource.entity, one, `A page of ${resource.path}, files resolved`);

  @ApiTags(resource.path)
  @Controller(resource.path)
  class CatalogController {
    constructor(@Inject(resource.service) private readonly catalog: CatalogService<CatalogEntity>) {}

    @Get()
    @read
    @CacheableRead()
    @ApiOperation({
      operationId: `list${all}`,
      summary: `List ${resource.path} with their files: a page, searched by ${searchedIn}, in id order or another`,
    })
    @ApiOkResponse({ type: PageSchema })
    @ApiProblems(400)
    list(@Query() query: CatalogListQuery): Promise<Page<CatalogEntity>> {
      return this.catalog.list(query);
    }

    @Get(':id')
    @read
    @CacheableRead()
    @ApiOperation({ operationId: `get${one}`, summary: `Get one ${resource.label} with its files` })
    @ApiOkResponse({ type: resource.entity })
    @ApiProblems(400, missing)
    get(@Param('id', ParseIdPipe) id: number): Promise<CatalogEntity> {
      return this.catalog.get(id);
    }

    @Post()
    @write
    @Audited(`${resource.label}.create`, resource.label)
    @ApiOperation({ operationId: `create${one}`, summary: `Create ${aLabel}` })
    @ApiBody({ type: resource.createDto })
    @ApiCreatedResponse({ type: resource.entity, description: 'Created; its file fields are empty' })
    @ApiProblems(400)
    create(@Body(createValidationPipe(resource.createDto)) body: object): Promise<CatalogEntity> {
      return this.catalog.create(body);
    }

    @Patch(':id')
    @write
    @Audited(`${resource.label}.update`, resource.label)
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
    ): Promise<CatalogEntity> {
      return this.catalog.update(id, body);
    }

    @Delete(':id')
    @write
    @HttpCode(204)
    @Audited(`${resource.label}.delete`, resource.label)
    @ApiOperation({ operationId: `delete${one}`, summary: `Delete ${aLabel} and its files` })
    @ApiNoContentResponse({ description: 'Deleted' })
    @ApiProblems(400, missing, TRANSACTION_CONFLICT_RESPONSE)
    remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
      return this.catalog.remove(id);
    }
  }
  Object.defineProperty(CatalogController, 'name', { value: `${one}Controller` });
  return CatalogController;
}
