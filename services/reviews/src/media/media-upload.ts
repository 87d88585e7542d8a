import { HttpException } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { MEDIA_MAX_BYTES } from '@app/contracts';
import { ReviewsException } from '../reviews.errors';

/** One image per upload, a few text fields at most (multer's limits before the move to Fastify). */
export async function registerMediaUploads(app: NestFastifyApplication): Promise<void> {
  await app.register(multipart, { limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 5 } });
}

/** The multipart plugin's limit errors, in multer's words (the replies clients and tests know). */
const LIMIT_MESSAGES: Record<string, string> = {
  FST_FILES_LIMIT: 'Too many files',
  FST_FIELDS_LIMIT: 'Too many fields',
  FST_PARTS_LIMIT: 'Too many parts',
  FST_PROTO_VIOLATION: 'Invalid field name',
};

function uploadError(err: unknown): unknown {
  if (err instanceof HttpException) return err;
  const { code, message } = err as { code?: string; message?: string };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ReviewsException('FILE_TOO_LARGE', 'File too large');
  if (code && code in LIMIT_MESSAGES) return new ReviewsException('INVALID_UPLOAD', LIMIT_MESSAGES[code]);
  if (code?.startsWith('FST_')) return new ReviewsException('INVALID_UPLOAD', 'Bad request');
  // Busboy's own errors: a body that is not the multipart it claims to be.
  if (typeof message !== 'string') return err;
  if (message.startsWith('Multipart:')) return new ReviewsException('INVALID_UPLOAD', message);
  if (/unexpected end/i.test(message)) {
    return new ReviewsException('INVALID_UPLOAD', 'Multipart: Unexpected end of form');
  }
  return new ReviewsException('INVALID_UPLOAD', `Multipart: ${message}`);
}

/**
 * The bytes of the upload's one file under `field`, or undefined when the request carries
 * none (not multipart, no such part, an empty file name). Another file field is refused;
 * on any failure the rest of the body is drained, so the connection stays usable.
 */
export async function readUploadedFile(req: FastifyRequest, field: string): Promise<Buffer | undefined> {
  if (!req.isMultipart()) return undefined;
  // An empty multipart body: the plugin reads it as an empty form, multer as a cut-off one.
  if (req.headers['content-length'] === '0') throw new ReviewsException('INVALID_UPLOAD', 'Multipart: Unexpected end of form');
  let file: Buffer | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldnameTruncated) throw new ReviewsException('INVALID_UPLOAD', 'Field name too long');
        if (part.valueTruncated) throw new ReviewsException('INVALID_UPLOAD', `Field value too long - ${part.fieldname}`);
        continue;
      }
      if (!part.filename) {
        part.file.resume();
        continue;
      }
      if (part.fieldname !== field) throw new ReviewsException('INVALID_UPLOAD', `Unexpected file field - ${part.fieldname}`);
      file = await part.toBuffer();
    }
  } catch (err) {
    req.raw.unpipe();
    req.raw.resume();
    throw uploadError(err);
  }
  return file;
}
