import { Module } from '@nestjs/common';

/** socket.io endpoint of the gateway (ARCHITECTURE §7). Built by the messaging issue. */
@Module({})
export class RealtimeModule {}
