import { Injectable } from '@nestjs/common';
import { FilesError, FilesErrorCode } from '../../../errors/files.errors.js';
import { FileStorage } from '../../../storage/file-storage.js';
import { overBudget, type RasterHeader } from './decode-cost.js';
import { isRasterImage } from './image-types.js';
import { withLocalCopy } from './local-copy.js';
import { loadSharp } from './sharp.js';

/** An image's size as it is shown: after its EXIF orientation, one frame of an animation. */
export interface ImageSize {
  width: number;
  height: number;
}

/** What a field with variants or `maxPixels` demands of the images it stores. */
export interface ImageRules {
  maxPixels: number;
  /** Whether every frame counts (the field has an animated variant), or only the first. */
  countFrames: boolean;
  /** The most memory (bytes) decoding the image for its variants may take (see decodeBytes); none without. */
  maxDecodeBytes?: number;
}

/** A part as the upload stored it: its key, its first bytes, its size and its sniffed type. */
export interface ProbedPart {
  key: string;
  head: Buffer;
  size: number;
  mimeType: string;
}

/**
 * Reads the dimensions of an uploaded image from its header, before the upload commits; no pixel is decoded, so a
 * decompression bomb costs no more than any other file, and one whose decoding would take more memory than allowed
 * is refused before it is stored. The header is read from the first bytes the upload kept
 * (see ByteInspector), and only when it lies beyond them (a large GIF, WebP or TIFF) from the stored object, copied
 * to a temporary file.
 */
@Injectable()
export class ImageProbe {
  constructor(private readonly storage: FileStorage) {}

  /**
   * The size of a raster image, null for any other file (or an image whose header is unreadable). With rules, an
   * image the field could not make variants of is refused with 415, and one with more pixels than allowed, or whose
   * decoding would take more memory than allowed, with 413.
   */
  async inspect(part: ProbedPart, rules?: ImageRules): Promise<ImageSize | null> {
    const header = isRasterImage(part.mimeType) ? await this.header(part) : undefined;
    if (!rules) return header ? { width: header.width, height: header.height } : null;
    if (!header) {
      if (!part.mimeType.startsWith('image/')) return null;
      throw new FilesError(
        FilesErrorCode.ImageNotDecodable,
        `This field makes image variants and cannot decode this ${part.mimeType} file ` +
          '(JPEG, PNG, WebP, GIF, AVIF and TIFF are read).',
      );
    }
    const pixels = header.width * header.height * (rules.countFrames ? header.frames : 1);
    if (pixels > rules.maxPixels) {
      throw new FilesError(
        FilesErrorCode.ImageTooLarge,
        `The image has ${pixels} pixels (${header.width}×${header.height}` +
          `${rules.countFrames && header.frames > 1 ? `×${header.frames} frames` : ''}); ` +
          `this field takes at most ${rules.maxPixels}.`,
      );
    }
    const costly =
      rules.maxDecodeBytes === undefined ? undefined : overBudget(header, rules.maxDecodeBytes, rules.countFrames);
    if (costly) throw new FilesError(FilesErrorCode.ImageTooLarge, costly);
    return { width: header.width, height: header.height };
  }

  private async header(part: ProbedPart): Promise<RasterHeader | undefined> {
    const fromHead = await readHeader(part.head);
    if (fromHead || part.head.length >= part.size) return fromHead;
    return withLocalCopy(this.storage, part.key, readHeader);
  }
}

/** The header of an image in a buffer or a file, or undefined when sharp cannot read one. */
export async function readHeader(input: Buffer | string): Promise<RasterHeader | undefined> {
  // Loaded outside the try: a sharp that cannot load is the service's failure, not an unreadable image.
  const sharp = await loadSharp();
  try {
    // No pixel limit here: the caller compares the size with its own, to answer with its numbers.
    const metadata = await sharp(input, { limitInputPixels: false }).metadata();
    const { width, height } = metadata.autoOrient ?? metadata;
    if (!(width > 0 && height > 0)) return undefined;
    return {
      format: metadata.format,
      width,
      height,
      frames: metadata.pages ?? 1,
      channels: metadata.channels,
      depth: metadata.depth,
      progressive: metadata.isProgressive,
      chromaSubsampling: metadata.chromaSubsampling,
    };
  } catch {
    return undefined;
  }
}
