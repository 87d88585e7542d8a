import { Body, Controller, Get, Module, Param, Post, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import request from 'supertest';
import { OPENAPI_PATH, serveOpenApi } from './openapi';

class PartDto {
  @IsString()
  @MaxLength(20)
  label: string;
}

class CreateWidgetDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(40)
  name: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5)
  size?: number;

  @IsOptional()
  @ValidateNested({ each: true })
  @ArrayMaxSize(3)
  @Type(() => PartDto)
  parts?: PartDto[];
}

class PageDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page = 1;
}

class WidgetQueryDto extends PageDto {
  @IsOptional()
  @IsIn(['new', 'old'])
  sort?: 'new' | 'old';
}

@Controller('widgets')
class WidgetsController {
  @Get(':id')
  one(@Param('id') id: string) {
    return { id };
  }

  @Get()
  list(@Query() query: WidgetQueryDto) {
    return query;
  }

  @Post()
  create(@Body() dto: CreateWidgetDto) {
    return dto;
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
      expect(Object.keys(res.body.paths)).toEqual(['/api/widgets/{id}', '/api/widgets']);
      expect(res.body.paths['/api/widgets/{id}'].get.parameters[0]).toMatchObject({ name: 'id', in: 'path' });

      // Bodies and queries are documented from the DTOs' class-validator rules.
      expect(res.body.paths['/api/widgets'].post.requestBody.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/CreateWidgetDto',
      });
      expect(res.body.components.schemas.CreateWidgetDto).toEqual({
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 40 },
          size: { type: 'integer', minimum: 1, maximum: 5 },
          parts: { type: 'array', maxItems: 3, items: { $ref: '#/components/schemas/PartDto' } },
        },
        required: ['name'],
      });
      expect(res.body.components.schemas.PartDto).toEqual({
        type: 'object',
        properties: { label: { type: 'string', maxLength: 20 } },
        required: ['label'],
      });
      expect(res.body.paths['/api/widgets'].get.parameters).toEqual([
        { name: 'sort', in: 'query', required: false, schema: { type: 'string', enum: ['new', 'old'] } },
        { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
      ]);
    } finally {
      await app.close();
    }
  });
});
