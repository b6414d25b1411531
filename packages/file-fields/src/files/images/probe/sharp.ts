import type sharpModule from 'sharp';

export type SharpFactory = typeof sharpModule;

let loading: Promise<SharpFactory> | undefined;

/**
 * sharp, loaded on the first image this process reads: libvips and its codecs cost 6-8 MiB of this service's resident
 * memory after start (about 25 MiB in a bare Node.js process), which a process that reads no image does not spend.
 */
export function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // libvips would otherwise keep recent operations and open input files: each variant is made once, from a
    // temporary copy that is deleted right after, so a cache would only hold memory and the descriptors of deleted
    // files.
    sharp.cache(false);
    // One libvips worker thread per image: each thread holds buffers of its own, so the memory an image takes would
    // grow with the cores of the machine; the variant queue already decides how many images are decoded at once.
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}
