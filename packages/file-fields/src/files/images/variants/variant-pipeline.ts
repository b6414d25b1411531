import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OutputInfo, Sharp } from 'sharp';
import type { FileStorage } from '../../../storage/file-storage.js';
import { overBudget } from '../probe/decode-cost.js';
import type { ImageVariantOptions, VariantFormat } from '../options/image-options.js';
import { readHeader } from '../probe/image-probe.js';
import { loadSharp, type SharpFactory } from '../probe/sharp.js';
import type { StoredVariant } from '../../records/variant-state.js';

const EXTENSIONS: Record<VariantFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif', gif: 'gif' };
const MIME_TYPES: Record<VariantFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};
/** A variant without a declared format keeps its original's, except TIFF, which browsers do not show. */
const FORMAT_OF: Record<string, VariantFormat | undefined> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
};

/** One declared variant of one original: what to make, in which format, under which storage key. */
export interface VariantTarget {
  name: string;
  options: ImageVariantOptions;
  format: VariantFormat;
  key: string;
}

/**
 * A variant cannot be made from its original, now or later: the image does not decode, exceeds the pixel limit, or
 * would take more memory to decode than the budget.
 */
export class VariantInputError extends Error {}

/** What decoding an original for its variants may take. */
export interface VariantLimits {
  maxPixels: number;
  /** Bytes of memory, as decodeBytes estimates them from the header. */
  maxDecodeBytes: number;
}

/** The errno of the reasons libvips gives (strerror's words) for a file it cannot read or write. */
const SYSTEM_ERRORS: Record<string, string> = {
  'no space left on device': 'ENOSPC',
  'disk quota exceeded': 'EDQUOT',
  'input/output error': 'EIO',
  'read-only file system': 'EROFS',
  'too many open files': 'EMFILE',
  'permission denied': 'EACCES',
};

/**
 * A failure of the temporary files rather than of the image (`<path>: write error\nsystem error: No space left on
 * device`, a copy removed meanwhile): the variant may well be made later, so it is thrown as a fault of the storage,
 * with its errno as `code` where known, and not recorded.
 */
function fileFault(error: unknown): Error | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const reason = /system error: (.+)/.exec(message)?.[1].trim().toLowerCase();
  if (reason === undefined && !message.startsWith('Input file is missing')) return undefined;
  const code = reason === undefined ? undefined : SYSTEM_ERRORS[reason];
  return Object.assign(new Error(message, { cause: error }), code ? { code } : {});
}

/**
 * Where a variant of an original is stored: next to it, `<original key>.<name>-<fingerprint>.<extension>`, so the
 * orphan sweeper finds its original, and a changed declaration (another fingerprint) is a new variant, not a stale one.
 */
export function variantTarget(
  original: { storageKey: string; mimeType: string },
  name: string,
  options: ImageVariantOptions,
): VariantTarget {
  const format = options.format ?? FORMAT_OF[original.mimeType] ?? 'png';
  const key = `${original.storageKey}.${name}-${fingerprintOf(options, format)}.${EXTENSIONS[format]}`;
  return { name, options, format, key };
}

/** Declarations are fixed once decorated: each one's fingerprints are computed once (responses list many records). */
const fingerprints = new WeakMap<ImageVariantOptions, Map<VariantFormat, string>>();

function fingerprintOf(options: ImageVariantOptions, format: VariantFormat): string {
  const known = fingerprints.get(options) ?? fingerprints.set(options, new Map()).get(options)!;
  let fingerprint = known.get(format);
  if (fingerprint === undefined) {
    const declared = [
      options.width,
      options.height,
      options.fit ?? 'inside',
      format,
      options.quality,
      options.animated,
    ];
    const json = JSON.stringify(declared.map((value) => value ?? null));
    fingerprint = createHash('sha256').update(json).digest('hex').slice(0, 10);
    known.set(format, fingerprint);
  }
  return fingerprint;
}

/**
 * The sharp pipeline of a variant, reading an image file: oriented by its EXIF tag, resized (never enlarged), encoded;
 * metadata (EXIF, GPS, XMP) is not copied. Only the first frame is read unless the variant is animated. libvips reads
 * the file in strips (sequential access) where the format allows (see decodeBytes for those it does not);
 * `maxPixels` refuses one whose header claims more pixels, before decoding.
 */
function variantTransformer(sharp: SharpFactory, target: VariantTarget, inputPath: string, maxPixels: number): Sharp {
  const { width, height, fit = 'inside', quality, animated = false } = target.options;
  const encoder = target.format === 'jpeg' || target.format === 'webp' || target.format === 'avif';
  return sharp(inputPath, { limitInputPixels: maxPixels, animated, autoOrient: true, sequentialRead: true })
    .resize({ width, height, fit, withoutEnlargement: true })
    .toFormat(target.format, encoder && quality !== undefined ? { quality } : {});
}

/**
 * Makes a variant from an image file, into a file beside it, then streams that to storage under the variant's key.
 * An image whose header promises more pixels or more decoding memory than `limits` is not decoded at all. The two
 * kinds of failure are kept apart: one of the image itself is a {@link VariantInputError} (it will not decode next
 * time either); one of the temporary files or of the storage is thrown as such, to be tried again later.
 */
export async function produceVariant(
  storage: FileStorage,
  target: VariantTarget,
  inputPath: string,
  limits: VariantLimits,
): Promise<StoredVariant> {
  const outputPath = join(dirname(inputPath), `${target.name}.${EXTENSIONS[target.format]}`);
  // Loaded outside the try: a sharp that cannot load is the service's failure, not the image's.
  const sharp = await loadSharp();
  // Unreadable headers are left to the decoder, which says why.
  const header = await readHeader(inputPath);
  const costly = header && overBudget(header, limits.maxDecodeBytes, target.options.animated);
  if (costly) throw new VariantInputError(costly);
  let info: OutputInfo;
  try {
    info = await variantTransformer(sharp, target, inputPath, limits.maxPixels).toFile(outputPath);
  } catch (error) {
    throw (
      fileFault(error) ??
      new VariantInputError(error instanceof Error ? error.message : String(error), { cause: error })
    );
  }
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(outputPath)) hash.update(chunk as Buffer);
  await storage.put(target.key, createReadStream(outputPath));
  return {
    key: target.key,
    width: info.width,
    height: info.pageHeight ?? info.height,
    size: info.size,
    mimeType: MIME_TYPES[target.format],
    checksumSha256: hash.digest('hex'),
  };
}
