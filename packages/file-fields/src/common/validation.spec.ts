import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, ValidateBy, ValidateNested } from 'class-validator';
import { ValidationFailedError, type FieldViolation } from '../errors/validation-failed.error.js';
import { createValidationPipe } from './validation.js';

class ContactDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  email!: string;
}

class SignupDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(10)
  nickname?: string;

  @ValidateNested()
  @Type(() => ContactDto)
  contact!: ContactDto;
}

async function violations(body: unknown): Promise<FieldViolation[]> {
  const error = await createValidationPipe()
    .transform(body, { type: 'body', metatype: SignupDto })
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(ValidationFailedError);
  return (error as ValidationFailedError).violations;
}

describe('createValidationPipe', () => {
  it('reports a missing required property as required, not by its other rules', async () => {
    expect(await violations({ contact: {} })).toEqual([
      { field: 'name', messages: ['name is required'] },
      { field: 'contact.email', messages: ['email is required'] },
    ]);
  });

  it('lists the broken rules of a present value in the order they are declared', async () => {
    expect(await violations({ name: 42, nickname: 'far too long a nickname', contact: { email: '' } })).toEqual([
      { field: 'name', messages: ['name must be a string', 'name must be shorter than or equal to 200 characters'] },
      { field: 'nickname', messages: ['nickname must be shorter than or equal to 10 characters'] },
      { field: 'contact.email', messages: ['email should not be empty'] },
    ]);
  });

  it('still refuses null for a required property by its rules', async () => {
    const [name] = await violations({ name: null, contact: { email: 'a@example.org' } });
    expect(name.messages[0]).toBe('name must be a string');
  });
});

describe('createValidationPipe on query strings', () => {
  let checks = 0;

  class PageQuery {
    @IsOptional()
    @Type(() => Number)
    @IsInt()
    @Max(100)
    @ValidateBy({ name: 'counted', validator: { validate: () => ++checks > 0 } })
    limit = 20;

    @IsOptional()
    @IsString({ each: true })
    tags?: string[];
  }

  const query = (value: unknown, pipe = createValidationPipe()) =>
    pipe.transform(value, { type: 'query', metatype: PageQuery }) as Promise<PageQuery>;

  it('validates a query every time, and gives each request a DTO of its own', async () => {
    const pipe = createValidationPipe();
    const first = await query({ limit: '50', tags: ['a', 'b'] }, pipe);
    checks = 0;
    const second = await query({ limit: '50', tags: ['a', 'b'] }, pipe);
    expect(checks).toBe(1);
    expect(second).toBeInstanceOf(PageQuery);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(second.tags).not.toBe(first.tags);
  });

  it('refuses a refused query every time, and validates a body every time', async () => {
    const pipe = createValidationPipe();
    for (let i = 0; i < 2; i++) await expect(query({ limit: '500' }, pipe)).rejects.toThrow(ValidationFailedError);
    checks = 0;
    for (let i = 0; i < 2; i++) await pipe.transform({ limit: 5 }, { type: 'body', metatype: PageQuery });
    expect(checks).toBe(2);
  });
});
