import type { IncomingMessage } from 'node:http';
import type { Step } from '../http/pipeline';
import { sendEnvelopeError } from '../proxy/envelope-reply';
import { routePath } from '../proxy/route-path';

/** The one route that takes a file (multipart/form-data): `POST /api/media`. */
export function isUploadRequest(req: IncomingMessage): boolean {
  return req.method === 'POST' && routePath(req.url ?? '/') === '/api/media';
}

/** Refuses a declared body above the limit before it is streamed to a service. */
export function createBodyLimit(jsonLimit: number, uploadLimit: number): Step<IncomingMessage> {
  return (req, res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    const isUpload = isUploadRequest(req);
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
