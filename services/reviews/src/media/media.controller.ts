import { Controller, Get, Headers, Param, Post, Res, StreamableFile, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { memoryStorage } from 'multer';
import type { Response } from 'express';
import { MEDIA_MAX_BYTES } from '@app/contracts';
import { AuthenticatedUser, CurrentUser, Public, Reply } from '@app/platform';
import { MediaService } from './media.service';

/** Uploaded files never change (a new upload gets a new id), so caches may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

@Controller('media')
export class MediaController {
  constructor(private readonly media: MediaService) {}

  @Post()
  @UseInterceptors(
    FileInterceptor('file', { storage: memoryStorage(), limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 5 } }),
  )
  async upload(@CurrentUser() user: AuthenticatedUser, @UploadedFile() file: Express.Multer.File | undefined) {
    return Reply.message('Uploaded', await this.media.upload(user.id, file?.buffer));
  }

  /** Public: an <img> tag cannot send a bearer token. */
  @Public()
  @Get(':id')
  async serve(
    @Param('id') id: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile | undefined> {
    const doc = await this.media.head(id);
    res.setHeader('Cache-Control', IMMUTABLE);
    res.setHeader('ETag', doc.etag);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === doc.etag)) {
      res.status(304);
      return undefined;
    }
    const bytes = await this.media.read(doc);
    return new StreamableFile(bytes, { type: doc.mime, length: bytes.length });
  }
}
