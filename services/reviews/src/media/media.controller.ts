import { Controller, Get, Headers, Param, Post, Req, Res, StreamableFile } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthenticatedUser, CurrentUser, Public, Reply } from '@app/platform';
import { readUploadedFile } from './media-upload';
import { MediaService } from './media.service';

/** Uploaded files never change (a new upload gets a new id), so caches may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

@Controller('media')
export class MediaController {
  constructor(private readonly media: MediaService) {}

  /** multipart/form-data, the image under "file" (limits: registerMediaUploads). */
  @Post()
  async upload(@CurrentUser() user: AuthenticatedUser, @Req() req: FastifyRequest) {
    return Reply.message('Uploaded', await this.media.upload(user.id, await readUploadedFile(req, 'file')));
  }

  /** Public: an <img> tag cannot send a bearer token. */
  @Public()
  @Get(':id')
  async serve(
    @Param('id') id: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<StreamableFile | undefined> {
    const doc = await this.media.head(id);
    res.header('Cache-Control', IMMUTABLE);
    res.header('ETag', doc.etag);
    res.header('X-Content-Type-Options', 'nosniff');
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === doc.etag)) {
      res.status(304);
      return undefined;
    }
    const bytes = await this.media.read(doc);
    return new StreamableFile(bytes, { type: doc.mime, length: bytes.length });
  }
}
