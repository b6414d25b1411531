import { registerDecorator, type ValidationOptions } from 'class-validator';

/** How the built-in administration client is named on the sign-in page. */
export const ADMIN_CLIENT_NAME = 'the administration interface';

/** Letters that look like Latin ones (Cyrillic, Greek) and digits read as letters, folded to one Latin letter. */
const LOOKALIKES: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  і: 'i',
  ї: 'i',
  ј: 'j',
  с: 'c',
  р: 'p',
  х: 'x',
  ѕ: 's',
  ԁ: 'd',
  м: 'm',
  т: 't',
  н: 'h',
  α: 'a',
  ο: 'o',
  ι: 'i',
  ν: 'v',
  ε: 'e',
  τ: 't',
  μ: 'm',
  '0': 'o',
  '1': 'i',
  l: 'i',
  '|': 'i',
  '!': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

/** The name as it reads: accents, case and look-alike letters folded, split into words of letters and digits. */
function readAs(name: string): string[] {
  const folded = [...name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()]
    .map((char) => LOOKALIKES[char] ?? char)
    .join('')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
  return folded.split(/[^a-z0-9]+/).filter(Boolean);
}

/**
 * Whether a client's name could pass for the built-in administration interface on the sign-in or consent page:
 * "Administration", "the administration interface", "Admin UI", "ADMlN", "a.d.m.i.n" and the like. Case, spaces,
 * punctuation, accents and look-alike letters are ignored; a word starting with "admin" is enough ("Shop admin").
 */
export function imitatesAdministration(name: string): boolean {
  const words = readAs(name);
  const joined = words.join('');
  const admin = readAs('admin').join('');
  return (
    words.some((word) => word.startsWith(admin)) ||
    joined.includes(readAs('administration').join('')) ||
    joined.startsWith(admin) ||
    joined.startsWith(`the${admin}`)
  );
}

/** The name is not one {@link imitatesAdministration} refuses. */
export function IsNotAdministrationLookalike(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isNotAdministrationLookalike',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || !imitatesAdministration(value),
        defaultMessage: () =>
          `name must not look like the built-in client ("${ADMIN_CLIENT_NAME}"): people would take it for it`,
      },
    });
}
