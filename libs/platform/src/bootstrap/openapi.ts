import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { addValidationSchemas } from './openapi-schemas';

/** Where every service answers its own OpenAPI document (outside /api: the gateway merges them). */
export const OPENAPI_PATH = '/openapi.json';

/**
 * Serves this service's OpenAPI document, built from its controllers on the first request
 * (building it at start would slow every boot and every test for a document rarely read).
 * Body and query schemas come from the DTOs' class-validator rules (openapi-schemas.ts).
 */
export function serveOpenApi(app: INestApplication, service: string): void {
  let document: OpenAPIObject | undefined;
  const http = app.getHttpAdapter();
  // Sent by the response itself (Fastify's reply or Express's res), not the adapter's `reply`,
  // which wraps route results in the envelope.
  http.get(OPENAPI_PATH, (_req: unknown, res: { status(code: number): { send(body: unknown): unknown } }) => {
    document ??= addValidationSchemas(
      app,
      SwaggerModule.createDocument(app, new DocumentBuilder().setTitle(`${service} service`).setVersion('1').addBearerAuth().build()),
    );
    res.status(200).send(document);
  });
}
