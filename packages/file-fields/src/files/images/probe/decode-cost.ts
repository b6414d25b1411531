/** What an image's header says of the raster a decoder would build: read by sharp's metadata(), no pixel decoded. */
export interface RasterHeader {
  /** sharp's name of the format: `jpeg`, `png`, `webp`, `gif`, `heif` (AVIF), `tiff`. */
  format: string;
  /** The size as shown (after the EXIF orientation), of one frame. */
  width: number;
  height: number;
  frames: number;
  channels: number;
  /** sharp's band format: `uchar`, `ushort`, `float`… */
  depth: string;
  /** A progressive JPEG or an interlaced (Adam7) PNG. */
  progressive: boolean;
  /** A JPEG's chroma subsampling (`4:2:0`, `4:4:4`…), when it has one. */
  chromaSubsampling?: string;
}

/** The default decode budget: two variant jobs at once, with the service itself, stay well under 1 GiB. */
export const DEFAULT_IMAGE_DECODE_BYTES = 256 * 1024 * 1024;

/** Bytes a pixel costs a decoder that reads in strips (libvips' sequential access): rows in flight, not the raster. */
const STREAMED = 0.5;

const SAMPLE_BYTES: Record<string, number> = { uchar: 1, char: 1, ushort: 2, short: 2, uint: 4, int: 4, float: 4 };

/**
 * The memory (bytes) decoding the image takes at its peak, from its header; `allFrames` when every frame is decoded
 * (an animated variant). The formats that must hold the whole raster cost bytes per pixel of it; the others are read
 * in strips. The factors are a little above what the decoders sharp ships with were measured to hold.
 */
export function decodeBytes(header: RasterHeader, allFrames = false): number {
  const frames = allFrames ? Math.max(1, header.frames) : 1;
  return header.width * header.height * frames * bytesPerPixel(header, allFrames && header.frames > 1);
}

function bytesPerPixel(header: RasterHeader, animated: boolean): number {
  const sample = SAMPLE_BYTES[header.depth] ?? 8;
  switch (header.format) {
    case 'heif':
      // libheif keeps the AV1 decoder's YUV planes (16-bit), its RGB conversion, and libvips' copy of the picture.
      return 12 + 10 * sample;
    case 'png':
      // An interlaced PNG has its last pass spread over every row: the whole raster is decoded before the first row.
      return header.progressive ? 1.25 * header.channels * sample : STREAMED;
    case 'jpeg':
      // A progressive JPEG keeps every DCT coefficient (16 bits per sample) until its last scan, plus rows out.
      return header.progressive ? 2 * jpegSamples(header) + 1 : STREAMED;
    case 'gif':
      // Each frame is drawn on an RGBA canvas of the whole picture, beside its indexed pixels and the previous frame.
      return 7;
    case 'webp':
      // The first frame alone is decoded scaled, in strips; every frame of an animation is drawn on a canvas.
      return animated ? 6 : STREAMED;
    default:
      return STREAMED;
  }
}

/** Samples a pixel of a JPEG holds: its luma and its chroma at their subsampled resolution (CMYK: four). */
function jpegSamples({ channels, chromaSubsampling }: RasterHeader): number {
  const [j, a, b] = (chromaSubsampling ?? '').split(':').map(Number);
  if (channels !== 3 || !(j > 0 && a > 0 && b >= 0)) return channels;
  return 1 + 2 * (a / j) * (b === 0 ? 0.5 : 1);
}

/** Bytes in MiB, rounded up: how a limit and a cost are shown to people. */
function mebibytes(bytes: number): string {
  return `${Math.ceil(bytes / (1024 * 1024))} MiB`;
}

const FORMAT_NAMES: Record<string, string> = { heif: 'AVIF', jpeg: 'JPEG', png: 'PNG', webp: 'WebP', gif: 'GIF' };

/** The image in a few words for a problem's detail: `interlaced PNG, 16000×16000`, `AVIF, 12000×12000×3 frames`. */
export function describeRaster(header: RasterHeader, allFrames = false): string {
  const name = FORMAT_NAMES[header.format] ?? header.format.toUpperCase();
  const kind = !header.progressive ? name : header.format === 'png' ? `interlaced ${name}` : `progressive ${name}`;
  const frames = allFrames && header.frames > 1 ? `×${header.frames} frames` : '';
  return `${kind}, ${header.width}×${header.height}${frames}`;
}

/**
 * Why the image is not decoded under a budget of `limit` bytes, or undefined when it may be: a sentence naming its
 * cost and the limit, for a problem's detail and the log.
 */
export function overBudget(header: RasterHeader, limit: number, allFrames = false): string | undefined {
  const cost = decodeBytes(header, allFrames);
  if (cost <= limit) return undefined;
  return (
    `Decoding this image (${describeRaster(header, allFrames)}) would take about ${mebibytes(cost)} of memory; ` +
    `images are decoded in at most ${mebibytes(limit)} (${limit} bytes).`
  );
}
