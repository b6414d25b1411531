import { registerDecorator, type ValidationOptions } from 'class-validator';
import { ADMIN_CLIENT_NAME } from '../../credentials/administration-client.js';

/** Capitals whose small letter reads otherwise (Greek Nu is an N, its small letter a v), folded before case is. */
const CAPITAL_LOOKALIKES: Record<string, string> = {
  Ν: 'n',
  Η: 'h',
  Κ: 'k',
  Β: 'b',
  Ρ: 'p',
  Χ: 'x',
  Υ: 'y',
  Ζ: 'z',
  В: 'b',
  К: 'k',
};

/** Letters that look like Latin ones (Cyrillic, Greek, IPA, small capitals) and digits read as letters, folded. */
const LOOKALIKES: Record<string, string> = {
  ı: 'i',
  ɪ: 'i',
  ɨ: 'i',
  ӏ: 'i',
  ɴ: 'n',
  η: 'n',
  п: 'n',
  ո: 'n',
  ᴀ: 'a',
  ɑ: 'a',
  ᴅ: 'd',
  ᴍ: 'm',
  г: 'r',
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

/** Controls that reorder what follows them: "\u202Enoitartsinimda" is drawn "administration". */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** Any other letter: one no table can list, read as "could be any letter" ({@link readsAt}). */
const UNKNOWN_LETTER = '?';

/**
 * The name as it reads: invisible characters dropped (a zero-width space inside a word), accents, case and look-alike
 * letters folded, any other letter kept as {@link UNKNOWN_LETTER}; split into words of letters and digits.
 */
function readAs(name: string): string[] {
  const folded = [...name.normalize('NFKD').replace(/[\p{M}\p{Default_Ignorable_Code_Point}]/gu, '')]
    .map((char) => CAPITAL_LOOKALIKES[char] ?? char)
    .join('')
    .toLowerCase();
  const read = [...folded]
    .map((char) => LOOKALIKES[char] ?? (/[a-z0-9]/.test(char) || !/\p{L}/u.test(char) ? char : UNKNOWN_LETTER))
    .join('')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
  return read.split(/[^a-z0-9?]+/).filter(Boolean);
}

/**
 * Whether `text` reads as `target` from `at`: each letter the same or unknown, and more than half of them the same (so
 * a word of another script is not taken for one, a Latin word with a letter swapped for a look-alike is).
 */
function readsAt(text: string, target: string, at = 0): boolean {
  if (text.length - at < target.length) return false;
  let same = 0;
  for (let index = 0; index < target.length; index++) {
    const char = text[at + index];
    if (char === target[index]) same++;
    else if (char !== UNKNOWN_LETTER) return false;
  }
  return same * 2 > target.length;
}

/**
 * Whether a client's name could pass for the built-in administration interface on the sign-in or consent page:
 * "Administration", "the administration interface", "Admin UI", "ADMlN", "a.d.m.i.n" and the like. Case, spaces,
 * punctuation, accents and look-alike letters are ignored; a word starting with "admin" is enough ("Shop admin").
 */
export function imitatesAdministration(name: string): boolean {
  // A name that reorders itself can be drawn as anything.
  if (BIDI_CONTROLS.test(name)) return true;
  const words = readAs(name);
  const joined = words.join('');
  const admin = readAs('admin').join('');
  const administration = readAs('administration').join('');
  return (
    words.some((word) => readsAt(word, admin)) ||
    [...joined].some((_char, at) => readsAt(joined, administration, at)) ||
    readsAt(joined, admin) ||
    readsAt(joined, `the${admin}`)
  );
}

/** Whether nothing of the name is drawn: only spaces and invisible characters (a zero-width space). */
function isBlankName(name: string): boolean {
  return name.replace(/[\s\p{Default_Ignorable_Code_Point}\p{Cc}]/gu, '') === '';
}

/** The name is not one {@link imitatesAdministration} refuses, nor one that shows nothing ({@link isBlankName}). */
export function IsNotAdministrationLookalike(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isNotAdministrationLookalike',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) =>
          typeof value !== 'string' || (!isBlankName(value) && !imitatesAdministration(value)),
        defaultMessage: (args) =>
          typeof args?.value === 'string' && isBlankName(args.value)
            ? 'name must show something: it is blank once spaces and invisible characters are left out'
            : `name must not look like the built-in client ("${ADMIN_CLIENT_NAME}"): people would take it for it`,
      },
    });
}
