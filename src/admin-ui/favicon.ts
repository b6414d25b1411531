import type { Express, Request, Response } from 'express';

/** The service's icon: a page on the accent colour of the administration UI. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="6" fill="#1f5fbf"/>' +
  '<path d="M10 6h8l6 6v14H10z" fill="#fff"/><path d="M18 6v6h6z" fill="#b9cff0"/></svg>';

/**
 * FAVICON_SVG drawn at 32×32 as a palette PNG (by sharp, once: loading sharp for it would cost the process the memory
 * of libvips; favicon.spec.ts checks that it still shows the SVG).
 */
export const FAVICON_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAMAAABEpIrGAAAAPFBMVEVMaXEqVaoeX74fX78eXr8cXrweXr4eXr4kbbYfX74eXr8eX78eX78eX78eX78' +
    'eX77///8fX7+5z/Cpwum+7PKMAAAAEHRSTlMABm70bBvHzwfz0G3JyPHGO7buQQAAAAlwSFlzAAALEwAACxMBAJqcGAAAAHRJREFUOMvt080KgCAQ' +
    'BOAx/zMr8/3fNaFAhXU9B81J2E/Yww4At0SZiMgYHEr0moaxuvxn5kU4LImNwsYDA88Dj/o+3+ROEODKM9AJErSCBo0YgCoI8OQHXwSTo93nZx9m' +
    'xXGWrZ4o5bV8eQGhDLmpP5QAbrtrQKsASaKPAAAAAElFTkSuQmCC',
  'base64',
);

/** Where the pages link the icon (`<link rel="icon">`); /favicon.ico is what browsers and other clients ask for. */
export const FAVICON_PATH = '/favicon.svg';

/** Browsers ask for it again now and then; it hardly ever changes. */
const CACHE_CONTROL = 'public, max-age=31536000';

/**
 * An ICO file of one square PNG image (allowed in ICO since Windows Vista, read by every current browser): the
 * 6-byte ICONDIR, one 16-byte ICONDIRENTRY, then the PNG.
 */
export function icoOf(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size % 256, 6); // 0 stands for 256
  header.writeUInt8(size % 256, 7);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(header.length, 18); // where the image starts
  return Buffer.concat([header, png]);
}

/**
 * Serves the icon at /favicon.svg and /favicon.ico (GET and HEAD routes), so that no page of the service (the
 * administration UI, the sign-in page, /api/docs) answers a browser's request for an icon with a 404.
 */
export function serveFavicon(app: Express): void {
  const icons: [string, string, Buffer][] = [
    [FAVICON_PATH, 'image/svg+xml', Buffer.from(FAVICON_SVG)],
    ['/favicon.ico', 'image/x-icon', icoOf(FAVICON_PNG, 32)],
  ];
  for (const [path, type, body] of icons) {
    app.get(path, (_req: Request, res: Response) => {
      res.setHeader('Cache-Control', CACHE_CONTROL);
      res.type(type).send(body);
    });
  }
}
