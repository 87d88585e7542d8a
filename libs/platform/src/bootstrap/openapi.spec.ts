import { Controller, Get, Module, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { OPENAPI_PATH, serveOpenApi } from './openapi';

@Controller('widgets')
class WidgetsController {
  @Get(':id')
  one(@Param('id') id: string) {
    return { id };
  }
}

@Module({ controllers: [WidgetsController] })
class WidgetsModule {}

describe('serveOpenApi', () => {
  it('answers the routes of the app, with the /api prefix, outside the prefix', async () => {
    const app = await NestFactory.create(WidgetsModule, { logger: false });
    app.setGlobalPrefix('api');
    serveOpenApi(app, 'widgets');
    await app.init();
    try {
      const res = await request(app.getHttpServer()).get(OPENAPI_PATH).expect(200);
      expect(res.body.info.title).toBe('widgets service');
      expect(Object.keys(res.body.paths)).toEqual(['/api/widgets/{id}']);
      expect(res.body.paths['/api/widgets/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path' });
    } finally {
      await app.close();
    }
  });
});
