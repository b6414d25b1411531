/**
 * The sniffed types whose size is read and from which variants are made: what sharp decodes. Other images (BMP, ICO,
 * HEIC, SVG…) have no width, height or variants.
 */
const RASTER_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
]);

export function isRasterImage(mimeType: string): boolean {
  return RASTER_IMAGE_TYPES.has(mimeType);
}

/** Bytes enough to tell the signatures below apart. */
export const SIGNATURE_BYTES = 12;

const startsWith = (head: Buffer, hex: string, at = 0) =>
  head.length >= at + hex.length / 2 && head.toString('hex', at, at + hex.length / 2) === hex;

/**
 * Whether the first bytes are those of a format in {@link RASTER_IMAGE_TYPES} (a cheap test while the upload streams,
 * before the type is sniffed): PNG, JPEG, GIF, WebP, TIFF, or an ISO media file (AVIF, HEIF).
 */
export function startsLikeRasterImage(head: Buffer): boolean {
  return (
    startsWith(head, '89504e47') ||
    startsWith(head, 'ffd8ff') ||
    startsWith(head, '47494638') ||
    (startsWith(head, '52494646') && startsWith(head, '57454250', 8)) ||
    startsWith(head, '49492a00') ||
    startsWith(head, '4d4d002a') ||
    startsWith(head, '66747970', 4)
  );
}
