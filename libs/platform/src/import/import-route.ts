import { timingSafeEqual } from 'node:crypto';
import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsObject } from 'class-validator';
import { Public } from '../auth/public.decorator';
import { CodedException } from '../http/coded.exception';
import { IMPORT_BATCH } from './bulk-import';

/** At most one batch a call (the services' body limit is 256 KB; a caller also cuts by size). */
export const IMPORT_ROWS_PER_CALL = IMPORT_BATCH;

/** The body of a service's import route: the rows its in-process import takes. */
export class ImportRowsDto {
  @IsArray()
  @ArrayMaxSize(IMPORT_ROWS_PER_CALL)
  @IsObject({ each: true })
  rows!: object[];
}

const bearer = (value: string) => Buffer.from(`Bearer ${value}`);

/**
 * Lets an operator's tool (the distributed bench, a migration) call a service's bulk import over
 * HTTP with the secret in IMPORT_TOKEN. Without the variable the routes answer 404, as if they did
 * not exist; they sit under /api/internal, a prefix the gateway routes to nobody, so only what can
 * reach a service's own port can reach them.
 */
@Injectable()
export class ImportTokenGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const secret = process.env.IMPORT_TOKEN;
    if (!secret) throw new CodedException('NOT_FOUND', 'Not found');
    const given = Buffer.from(String(context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers.authorization ?? ''));
    const expected = bearer(secret);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new CodedException('UNAUTHORIZED', 'A valid import token is required');
    return true;
  }
}

/** A bulk import's route: no member token, the operator's import token instead (checked before the body). */
export const ImportRoute = () => applyDecorators(Public(), UseGuards(ImportTokenGuard));
