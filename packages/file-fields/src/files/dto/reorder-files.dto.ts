import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsInt, Max, Min } from 'class-validator';

@ApiSchema({ name: 'ReorderFiles' })
export class ReorderFilesDto {
  @ApiProperty({
    type: 'integer',
    isArray: true,
    maxItems: 1000,
    uniqueItems: true,
    example: [12, 10, 11],
    description: 'Every file id of the field, in the new order',
  })
  @IsArray()
  @ArrayMaxSize(1000)
  @ArrayUnique()
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  ids!: number[];
}
