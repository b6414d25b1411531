import type { Request, Response } from 'express';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileRecord } from '../records/file-record.entity.js';
import { FilesError, FilesErrorCode } from '../../errors/files.errors.js';
import { type ByteRange } from '../../storage/file-storage.js';
import { contentHeaders, entityTag, matchesIfNoneMatch } from './content-headers.js';

/**
 * The one range a request asks for, or undefined for the whole file. Several ranges are answered with the whole
 * file (never a multipart/byteranges body), a malformed header is ignored as RFC 9110 says, and an If-Range that
 * no longer matches asks for the whole file too.
 */
function selectRange(req: Request, record: FileRecord): ByteRange | undefined {
  if (!req.headers.range) return undefined;
  const ifRange = req.get('if-range');
  if (ifRange && ifRange !== entityTag(record)) return undefined;
  const ranges = req.range(record.size, { combine: true });
  if (ranges === -1) {
    const error = new FilesError(FilesErrorCode.RangeNotSatisfiable, `The file has ${record.size} bytes.`);
    error.headers['Content-Range'] = `bytes */${record.size}`;
    throw error;
  }
  if (ranges === -2 || ranges === undefined || ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
  return { start: ranges[0].start, end: ranges[0].end };
}

/**
 * Streams a file with validators and ranges: 200, 206, 304 or 416. `cacheControl` replaces the default, which has
 * every use revalidated (`private, no-cache`).
 */
export async function sendContent(
  record: FileRecord,
  req: Request,
  res: Response,
  open: (range?: ByteRange) => Promise<Readable>,
  cacheControl = 'private, no-cache',
): Promise<void> {
  if (matchesIfNoneMatch(req.get('if-none-match'), entityTag(record))) {
    res
      .status(304)
      .set({ ETag: entityTag(record), 'Cache-Control': cacheControl })
      .end();
    return;
  }
  const range = selectRange(req, record);
  const stream = await open(range);
  res.set(contentHeaders(record)).set('Cache-Control', cacheControl);
  if (range) {
    res.status(206).set('Content-Range', `bytes ${range.start}-${range.end}/${record.size}`);
  } else {
    res.status(200);
  }
  res.set('Content-Length', String(range ? range.end - range.start + 1 : record.size));
  await pipeline(stream, res).catch(() => res.destroy());
}
