import type { Type } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type as TypeOf } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** Larger offsets are refused: the databases take 64-bit integers at most, and nobody pages that far. */
const MAX_OFFSET = 2_147_483_647;

/** `?limit=&offset=` of every paginated list: limit 1..100 (default 20), offset from 0. */
export class ListQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @TypeOf(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit = 20;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 })
  @IsOptional()
  @TypeOf(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_OFFSET)
  offset = 0;
}

/** The longest `q` accepted: what a person types to find one item, not a document. */
const MAX_SEARCH_LENGTH = 200;

export interface SearchableListQuery extends ListQueryDto {
  q?: string;
  sort: string;
}

/**
 * `?q=&sort=&limit=&offset=` of one list: `q` a case-insensitive substring of `searchedIn` (wildcards match
 * themselves), `sort` one of `sorts` (OpenAPI enum `<name>Sort`, default `defaultSort`). Build `sorts` with
 * `sortValuesOf` from the list's spec, so that the API and the query agree.
 */
export function listQueryOf(options: {
  name: string;
  sorts: readonly string[];
  defaultSort: string;
  searchedIn: string;
}): Type<SearchableListQuery> {
  const { name, sorts, defaultSort, searchedIn } = options;
  class SearchableListQueryDto extends ListQueryDto implements SearchableListQuery {
    @ApiPropertyOptional({
      maxLength: MAX_SEARCH_LENGTH,
      example: 'shop',
      description: `Only those whose ${searchedIn} contains this text, in any case (\`%\` and \`_\` are literal)`,
    })
    @IsOptional()
    @IsString()
    @MaxLength(MAX_SEARCH_LENGTH)
    q?: string;

    @ApiPropertyOptional({
      enum: sorts,
      enumName: `${name}Sort`,
      default: defaultSort,
      description:
        'The order: a property, descending with a leading `-`; ties in id order, the same way. ' +
        `Default: \`${defaultSort}\`.`,
    })
    @IsOptional()
    @IsIn(sorts)
    sort = defaultSort;
  }
  Object.defineProperty(SearchableListQueryDto, 'name', { value: `${name}ListQueryDto` });
  return SearchableListQueryDto;
}
