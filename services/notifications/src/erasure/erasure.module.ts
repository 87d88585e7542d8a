import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { ErasureEvents } from './erasure.events';
import { ErasureService } from './erasure.service';

@Module({
  imports: [NotificationsModule],
  controllers: [ErasureEvents],
  providers: [ErasureService],
})
export class ErasureModule {}
