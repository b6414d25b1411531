import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { FileRecordsRepository } from '../file-records.repository.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The attachment type of the file a `/files/:id` route addresses, for its permission check. */
    fileAttachmentType?: string;
  }
}

/**
 * Routes addressed by file id need `<attachment type>:read|write` of that file's entity; the type is looked up
 * here, before the access guard runs. An unknown id leaves it unset, and the handler answers 404.
 */
@Injectable()
export class FileTypeLookupMiddleware implements NestMiddleware {
  constructor(private readonly records: FileRecordsRepository) {}

  async use(req: Request, _res: Response, next: NextFunction): Promise<void> {
    const id = /^\/files\/([1-9]\d{0,9})(\/content)?\/?$/.exec(req.path)?.[1];
    if (id && Number(id) <= 2_147_483_647) {
      req.fileAttachmentType = (await this.records.findById(Number(id)).catch(() => null))?.attachmentType;
    }
    next();
  }
}

/** The permission of a route addressed by file id, e.g. `product:read`. */
export function filePermission(action: 'read' | 'write') {
  return (req: Request) => `${req.fileAttachmentType ?? 'file'}:${action}`;
}
