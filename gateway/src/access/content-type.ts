import type { IncomingMessage } from 'node:http';
import type { Step } from '../http/pipeline';
import { sendEnvelopeError } from '../proxy/envelope-reply';
import { isUploadRequest } from './body-limit';

/** Whether the request carries a body (a declared length above 0, or one sent in chunks). */
function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) !== 0;
}

/** The media type without its parameters, lower-cased (`application/json; charset=utf-8` is `application/json`). */
function mediaType(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0].trim().toLowerCase();
}

/**
 * A body in a type its route does not read is a 415 envelope (issue 45 §8): the upload takes
 * multipart/form-data, every other /api route JSON. Before, the services left an unknown type
 * unread and answered the missing fields, so JSON sent as text/plain read as an empty form.
 */
export const contentTypeCheck: Step = (req, res, next) => {
  if (!hasBody(req)) return next();
  const upload = isUploadRequest(req);
  const wanted = upload ? 'multipart/form-data' : 'application/json';
  if (mediaType(req.headers['content-type']) === wanted) return next();
  sendEnvelopeError(res, 415, `The body must be ${wanted}`, {}, 'UNSUPPORTED_MEDIA_TYPE');
};
