import { Module } from '@nestjs/common';
import { MemberDirectoryEvents } from './member-directory.events';
import { MemberDirectory } from './member-directory.service';

/** The user and block read models. */
@Module({
  controllers: [MemberDirectoryEvents],
  providers: [MemberDirectory],
  exports: [MemberDirectory],
})
export class MembersModule {}
