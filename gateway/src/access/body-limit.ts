import type { NextFunction, Request, Response } from 'express';
import { sendEnvelopeError } from '../proxy/envelope-reply';
import { routePath } from '../proxy/route-path';

/** Refuses a declared body above the limit before it is streamed to a service. */
export function createBodyLimit(jsonLimit: number, uploadLimit: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const length = Number(req.headers['content-length'] ?? 0);
    const isUpload = req.method === 'POST' && routePath(req.originalUrl) === '/api/media';
    const limit = isUpload ? uploadLimit : jsonLimit;
    if (length > limit) {
      // The same code as the reviews service's own upload limit: one text on the web for both.
      return isUpload
        ? sendEnvelopeError(res, 413, 'File is too large (max 2 MB)', {}, 'FILE_TOO_LARGE')
        : sendEnvelopeError(res, 413, 'Request body is too large');
    }
    next();
  };
}
