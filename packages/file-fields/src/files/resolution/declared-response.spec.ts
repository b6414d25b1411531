import 'reflect-metadata';
import { Controller, Get, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { FileField } from '../fields/file-field.decorator.js';
import type { FileRecordDto } from '../records/file-record.dto.js';
import { mayAnswerWithFileFields, schemaNameOf } from './declared-response.js';

class Photo {
  @ApiProperty() id!: number;
  @FileField() image?: FileRecordDto | null;
}

class Plain {
  @ApiProperty() id!: number;
}

class Page {
  @ApiProperty({ type: Photo, isArray: true }) items!: Photo[];
  @ApiProperty() total!: number;
}

class Nested {
  @ApiProperty({ type: () => Page }) page!: Page;
}

@Controller('things')
class Things {
  @Get('a') @ApiOkResponse({ type: Photo }) one(): void {}
  @Get('b') @ApiOkResponse({ type: [Photo] }) many(): void {}
  @Get('c') @ApiOkResponse({ type: Page }) page(): void {}
  @Get('d') @ApiCreatedResponse({ type: Nested }) nested(): void {}
  @Get('e') @ApiOkResponse({ schema: { items: { $ref: getSchemaPath('Photo') } } }) byRef(): void {}
  @Get('f') undeclared(): void {}
  @Get('g') @ApiOkResponse({ type: Plain }) plain(): void {}
  @Get('h') @ApiNoContentResponse() nothing(): void {}
  @Get('i') writesItself(@Res() _response: unknown): void {}
  @Get('j') passesThrough(@Res({ passthrough: true }) _response: unknown): void {}
}

describe('mayAnswerWithFileFields', () => {
  const names = new Set([schemaNameOf(Photo)]);
  const judge = (method: keyof Things) => mayAnswerWithFileFields(Things, method, names);

  it('follows declared types through arrays, pages, nested properties and $refs to an entity with file fields', () => {
    for (const method of ['one', 'many', 'page', 'nested', 'byRef'] as const)
      expect([method, judge(method)]).toEqual([method, true]);
  });

  it('judges a handler that declares nothing as one that may, and one that declares other answers as one that cannot', () => {
    expect(judge('undeclared')).toBe(true);
    expect(judge('passesThrough')).toBe(true);
    expect(judge('plain')).toBe(false);
    expect(judge('nothing')).toBe(false);
    expect(judge('writesItself')).toBe(false);
  });
});
