import type { Type } from '@nestjs/common';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { Page } from '../database/list-page.js';

/** The OpenAPI schema `<name>Page` of a page of `item`: `{ items, total, limit, offset }`. */
export function pageSchemaOf(item: Type<unknown>, name: string, description: string): Type<Page<unknown>> {
  @ApiSchema({ name: `${name}Page`, description })
  class PageSchema implements Page<unknown> {
    @ApiProperty({ type: item, isArray: true }) items!: unknown[];
    @ApiProperty({ type: 'integer', description: 'How many match, over all pages', example: 1 }) total!: number;
    @ApiProperty({ type: 'integer', example: 20 }) limit!: number;
    @ApiProperty({ type: 'integer', example: 0 }) offset!: number;
  }
  Object.defineProperty(PageSchema, 'name', { value: `${name}PageDto` });
  return PageSchema;
}
