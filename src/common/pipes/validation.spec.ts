import { Type } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
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
