import type { ImageRules } from '../probe/image-probe.js';

/** How a variant fits the box of `width` × `height` (sharp's `fit`): see {@link ImageVariantOptions}. */
const VARIANT_FITS = ['cover', 'contain', 'fill', 'inside', 'outside'] as const;
type VariantFit = (typeof VARIANT_FITS)[number];

/** The formats a variant can be written in; without one it keeps its original's (TIFF becomes PNG). */
const VARIANT_FORMATS = ['jpeg', 'png', 'webp', 'avif', 'gif'] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

/** One image variant of a file field, produced with sharp and stored next to the original. */
export interface ImageVariantOptions {
  /** Largest width in pixels; at least one of width and height. */
  width?: number;
  /** Largest height in pixels. */
  height?: number;
  /**
   * `inside` (default): within the box, proportions kept; `cover`: fills the box, cropped; `contain`: within the box,
   * letterboxed; `fill`: stretched; `outside`: covers the box, proportions kept. All but `inside` and `outside` need
   * both width and height. A variant is never larger than its original.
   */
  fit?: VariantFit;
  /** The output format; without it the original's (JPEG, PNG, WebP, AVIF, GIF; TIFF becomes PNG). */
  format?: VariantFormat;
  /** Encoder quality from 1 to 100 (JPEG, WebP, AVIF); the encoder's default without it. */
  quality?: number;
  /** true: every frame of an animated GIF or WebP (the format must be GIF or WebP); default: the first frame only. */
  animated?: boolean;
}

/**
 * The most pixels (width × height of one frame, times the frames when a variant is animated) an image in a field with
 * variants or `maxPixels` may have: 10000 × 10000. Formats read in strips stay cheap up to it, and those a decoder
 * holds whole are bounded by the decode budget (see decodeBytes) well below it.
 */
export const DEFAULT_MAX_PIXELS = 100_000_000;

/** Largest declared width or height: what every variant format can hold (WebP's limit). */
const MAX_SIDE = 16_383;
const MAX_VARIANTS = 16;
/** Variant names end up in storage keys (lower case only) and URLs. */
const VARIANT_NAME = /^[a-z][a-z0-9_]{0,31}$/;
const KNOWN_OPTIONS = new Set(['width', 'height', 'fit', 'format', 'quality', 'animated']);

/** The image options of a file field, as `@FileField()` takes them. */
export interface ImageFieldOptions {
  variants?: Readonly<Record<string, ImageVariantOptions>>;
  maxPixels?: number;
  accept?: readonly string[];
}

/** Throws at decoration time when a field's variants or maxPixels cannot work. */
export function assertValidImageOptions(property: string, { variants, maxPixels, accept }: ImageFieldOptions): void {
  const fail = (message: string): never => {
    throw new Error(`@FileField() ${property}: ${message}`);
  };
  if (maxPixels !== undefined && !(Number.isSafeInteger(maxPixels) && maxPixels > 0)) {
    fail('maxPixels must be a positive integer');
  }
  if (variants === undefined) return;
  if (typeof variants !== 'object' || variants === null || Array.isArray(variants)) {
    fail('variants must be an object of named variants');
  }
  const names = Object.keys(variants);
  if (names.length === 0 || names.length > MAX_VARIANTS) fail(`variants must name 1 to ${MAX_VARIANTS} variants`);
  if (accept && !accept.some((type) => type === '*/*' || type.startsWith('image/'))) {
    fail('variants need a field that accepts images');
  }
  for (const name of names) {
    if (!VARIANT_NAME.test(name)) fail(`variant name ${JSON.stringify(name)} must match ${VARIANT_NAME.source}`);
    const problem = variantProblem(variants[name]);
    if (problem) fail(`variant ${name}: ${problem}`);
  }
}

function variantProblem(variant: ImageVariantOptions | undefined): string | undefined {
  if (typeof variant !== 'object' || variant === null) return 'must be an object';
  const unknown = Object.keys(variant).find((key) => !KNOWN_OPTIONS.has(key));
  if (unknown) return `unknown option ${unknown}`;
  const { width, height, fit, format, quality, animated } = variant;
  const side = (n: number | undefined) => n === undefined || (Number.isSafeInteger(n) && n > 0 && n <= MAX_SIDE);
  if (!side(width) || !side(height)) return `width and height must be integers from 1 to ${MAX_SIDE}`;
  if (width === undefined && height === undefined) return 'needs a width, a height or both';
  if (fit !== undefined && !VARIANT_FITS.includes(fit)) return `fit must be one of ${VARIANT_FITS.join(', ')}`;
  if ((fit === 'cover' || fit === 'contain' || fit === 'fill') && (width === undefined || height === undefined)) {
    return `fit ${fit} needs both width and height`;
  }
  if (format !== undefined && !VARIANT_FORMATS.includes(format)) {
    return `format must be one of ${VARIANT_FORMATS.join(', ')}`;
  }
  if (quality !== undefined && !(Number.isInteger(quality) && quality >= 1 && quality <= 100)) {
    return 'quality must be an integer from 1 to 100';
  }
  if (animated !== undefined && typeof animated !== 'boolean') return 'animated must be true or false';
  if (animated && format !== undefined && format !== 'gif' && format !== 'webp') {
    return 'an animated variant must be GIF or WebP';
  }
  return undefined;
}

/** The variants in a sentence for the field's OpenAPI description: `thumb 200×200 cover, large 1600 wide inside webp`. */
export function describeVariants(variants: Readonly<Record<string, ImageVariantOptions>>): string {
  return Object.entries(variants)
    .map(([name, v]) => {
      const box =
        v.width !== undefined && v.height !== undefined
          ? `${v.width}×${v.height}`
          : v.width !== undefined
            ? `${v.width} wide`
            : `${v.height} high`;
      return [name, box, v.fit ?? 'inside', v.format, v.animated ? 'animated' : undefined].filter(Boolean).join(' ');
    })
    .join(', ');
}

/**
 * What a field demands of its images at upload: none without variants or maxPixels. `maxDecodeBytes`, the
 * application's decode budget, applies to fields with variants, whose images are decoded.
 */
export function imageRulesOf(
  field: Pick<ImageFieldOptions, 'variants' | 'maxPixels'>,
  maxDecodeBytes?: number,
): ImageRules | undefined {
  if (field.variants === undefined && field.maxPixels === undefined) return undefined;
  const countFrames = Object.values(field.variants ?? {}).some((variant) => variant.animated === true);
  const rules: ImageRules = { maxPixels: field.maxPixels ?? DEFAULT_MAX_PIXELS, countFrames };
  if (field.variants !== undefined && maxDecodeBytes !== undefined) rules.maxDecodeBytes = maxDecodeBytes;
  return rules;
}
