import { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/** Where every service answers its own OpenAPI document (outside /api: the gateway merges them). */
export const OPENAPI_PATH = '/openapi.json';

/**
 * Serves this service's OpenAPI document, built from its controllers on the first request
 * (building it at start would slow every boot and every test for a document rarely read).
 * Body and query schemas come from the DTOs' class-validator rules (openapi-schemas.ts).
 */
export function serveOpenApi(app: INestApplication, service: string): void {
  let document: Promise<OpenAPIObject> | undefined;
  const http = app.getHttpAdapter();
  // Sent by the response itself (Fastify's reply or Express's res), not the adapter's `reply`,
  // which wraps route results in the envelope.
  http.get(OPENAPI_PATH, async (_req: unknown, res: { status(code: number): { send(body: unknown): unknown } }) => {
    document ??= buildDocument(app, service).catch((err: unknown) => {
      document = undefined;
      throw err;
    });
    res.status(200).send(await document);
  });
}

/**
 * @nestjs/swagger and the schema builder are loaded here, on the first request for the document:
 * about a hundred modules (js-yaml among them) that no other request needs, once at each start of
 * every process otherwise (issue 44).
 */
async function buildDocument(app: INestApplication, service: string): Promise<OpenAPIObject> {
  const [{ DocumentBuilder, SwaggerModule }, { addValidationSchemas }] = await Promise.all([import('@nestjs/swagger'), import('./openapi-schemas')]);
  return addValidationSchemas(app, SwaggerModule.createDocument(app, new DocumentBuilder().setTitle(`${service} service`).setVersion('1').addBearerAuth().build()));
}
