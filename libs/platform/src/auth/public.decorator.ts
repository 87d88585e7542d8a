import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';

/** Marks a route that needs no token (register, login, media files). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
