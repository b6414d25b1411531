import { FileField } from '../../fields/file-field.decorator.js';
import { assertValidImageOptions, DEFAULT_MAX_PIXELS, describeVariants, imageRulesOf } from './image-options.js';
import type { ImageFieldOptions } from './image-options.js';

describe('image options of a file field', () => {
  const check = (options: ImageFieldOptions) => () => assertValidImageOptions('photo', options);

  it('accepts the variants of the example entities', () => {
    const variants = {
      thumb: { width: 200, height: 200, fit: 'cover' },
      large: { width: 1600, fit: 'inside', format: 'webp' },
    } as const;
    expect(check({ accept: ['image/*'], variants })).not.toThrow();
    expect(check({ accept: ['image/*', 'application/pdf'], variants: { thumb: variants.thumb } })).not.toThrow();
    expect(check({ variants: { a: { height: 10, animated: true, format: 'gif' } }, maxPixels: 1e6 })).not.toThrow();
  });

  it.each<[string, ImageFieldOptions, RegExp]>([
    ['no variant at all', { variants: {} }, /1 to 16 variants/],
    ['an array', { variants: [] as unknown as ImageFieldOptions['variants'] }, /object of named variants/],
    ['an upper-case name', { variants: { Thumb: { width: 1 } } }, /variant name "Thumb"/],
    ['a name with a dot', { variants: { 'a.b': { width: 1 } } }, /variant name "a.b"/],
    ['no size', { variants: { a: {} } }, /variant a: needs a width, a height or both/],
    ['a zero width', { variants: { a: { width: 0 } } }, /integers from 1 to 16383/],
    ['a fractional height', { variants: { a: { height: 1.5 } } }, /integers from 1 to 16383/],
    ['a side beyond WebP', { variants: { a: { width: 20000 } } }, /integers from 1 to 16383/],
    ['an unknown fit', { variants: { a: { width: 1, fit: 'crop' as 'cover' } } }, /fit must be one of/],
    ['cover without a height', { variants: { a: { width: 1, fit: 'cover' } } }, /fit cover needs both/],
    ['an unknown format', { variants: { a: { width: 1, format: 'bmp' as 'png' } } }, /format must be one of/],
    ['quality 0', { variants: { a: { width: 1, quality: 0 } } }, /quality must be an integer/],
    ['an animated JPEG', { variants: { a: { width: 1, animated: true, format: 'jpeg' } } }, /GIF or WebP/],
    ['a typo', { variants: { a: { width: 1, heigth: 2 } as never } }, /unknown option heigth/],
    ['a field of PDFs', { accept: ['application/pdf'], variants: { a: { width: 1 } } }, /accepts images/],
    ['a negative maxPixels', { maxPixels: -1 }, /maxPixels must be a positive integer/],
  ])('refuses %s', (_name, options, message) => {
    expect(check(options)).toThrow(message);
  });

  it('refuses a bad declaration when the class is decorated, naming the property', () => {
    expect(() => {
      class Shelf {
        @FileField({ variants: { thumb: { fit: 'cover', width: 10 } } }) photo?: unknown;
      }
      return Shelf;
    }).toThrow('@FileField() photo: variant thumb: fit cover needs both width and height');
  });

  it('describes variants in a sentence', () => {
    const text = describeVariants({
      thumb: { width: 200, height: 200, fit: 'cover' },
      tall: { height: 900 },
      large: { width: 1600, format: 'webp', animated: true },
    });
    expect(text).toBe('thumb 200×200 cover, tall 900 high inside, large 1600 wide inside webp animated');
  });

  it('derives upload rules only for fields with variants or maxPixels, counting frames only when animated', () => {
    expect(imageRulesOf({})).toBeUndefined();
    expect(imageRulesOf({ maxPixels: 100 })).toEqual({ maxPixels: 100, countFrames: false });
    expect(imageRulesOf({ variants: { a: { width: 1 } } })).toEqual({
      maxPixels: DEFAULT_MAX_PIXELS,
      countFrames: false,
    });
    expect(imageRulesOf({ variants: { a: { width: 1 }, b: { width: 2, animated: true } } })).toMatchObject({
      countFrames: true,
    });
    // The decode budget applies where images are decoded: in fields with variants.
    expect(imageRulesOf({ variants: { a: { width: 1 } } }, 5000)).toMatchObject({ maxDecodeBytes: 5000 });
    expect(imageRulesOf({ maxPixels: 100 }, 5000)).toEqual({ maxPixels: 100, countFrames: false });
  });
});
