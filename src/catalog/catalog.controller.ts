import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, type Type } from '@nestjs/common';
import {
  ApiBody,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermission } from '../common/auth/auth.decorators.js';
import { ParseIdPipe } from '../common/pipes/parse-id.pipe.js';
import { createValidationPipe } from '../common/pipes/validation.js';
import { ListQueryDto } from '../common/dto/list-query.dto.js';
import type { Page } from './catalog.dto.js';
import type { CatalogEntity, CatalogService } from './catalog.service.js';

export interface CatalogResource {
  /** Collection path, e.g. `products`. */
  path: string;
  /** Singular label for messages and docs. */
  label: string;
  /** DI token of the resource's {@link CatalogService}. */
  service: symbol;
  createDto: Type<object>;
  updateDto: Type<object>;
}

/** Builds the REST controller of one example collection: five thin handlers over its CatalogService. */
export function createCatalogController(resource: CatalogResource): Type<unknown> {
  const read = RequirePermission(`${resource.label}:read`);
  const write = RequirePermission(`${resource.label}:write`);

  @ApiTags(resource.path)
  @Controller(resource.path)
  class CatalogController {
    constructor(@Inject(resource.service) private readonly catalog: CatalogService<CatalogEntity>) {}

    @Get()
    @read
    @ApiOperation({ summary: `List ${resource.path} with their files` })
    list(@Query() query: ListQueryDto): Promise<Page<CatalogEntity>> {
      return this.catalog.list(query.limit, query.offset);
    }

    @Get(':id')
    @read
    @ApiOperation({ summary: `Get one ${resource.label} with its files` })
    @ApiNotFoundResponse({ description: 'No such entity' })
    get(@Param('id', ParseIdPipe) id: number): Promise<CatalogEntity> {
      return this.catalog.get(id);
    }

    @Post()
    @write
    @ApiOperation({ summary: `Create a ${resource.label}` })
    @ApiBody({ type: resource.createDto })
    create(@Body(createValidationPipe(resource.createDto)) body: object): Promise<CatalogEntity> {
      return this.catalog.create(body);
    }

    @Patch(':id')
    @write
    @ApiOperation({ summary: `Update a ${resource.label}` })
    @ApiBody({ type: resource.updateDto })
    @ApiOkResponse({ description: 'Updated' })
    update(
      @Param('id', ParseIdPipe) id: number,
      @Body(createValidationPipe(resource.updateDto)) body: object,
    ): Promise<CatalogEntity> {
      return this.catalog.update(id, body);
    }

    @Delete(':id')
    @write
    @HttpCode(204)
    @ApiOperation({ summary: `Delete a ${resource.label} and its files` })
    @ApiNoContentResponse({ description: 'Deleted' })
    remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
      return this.catalog.remove(id);
    }
  }
  Object.defineProperty(CatalogController, 'name', {
    value: `${resource.label[0].toUpperCase()}${resource.label.slice(1)}Controller`,
  });
  return CatalogController;
}
