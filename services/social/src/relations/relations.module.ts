import { Module } from '@nestjs/common';
import { RelationsService } from './relations.service';

@Module({ providers: [RelationsService], exports: [RelationsService] })
export class RelationsModule {}
