import { HttpException, Injectable } from '@nestjs/common';
import { FollowState } from '@app/contracts';
import { ImportReport, importRows } from '@app/platform';
import { EventBus } from '@app/bus';
import { FollowOrigin, FollowsService } from '../follows/follows.service';
import { ImportFollowDto } from './follow-import.dto';

/** An imported follow's event says so: its members are not emailed about it. */
const IMPORTED: FollowOrigin = { imported: true };

/**
 * Follows in bulk (docs/decisions/import.md): each row is `FollowsService.follow` as the route
 * calls it (no self-follows, blocks, a request for a private account, counters, the event), a
 * batch per transaction, at once (`followMany`). Both members must be known here
 * (`user.registered` handled).
 */
@Injectable()
export class FollowImportService {
  constructor(
    private readonly follows: FollowsService,
    private readonly bus: EventBus,
  ) {}

  import(rows: readonly unknown[]): Promise<ImportReport<{ status: FollowState }>> {
    return importRows(this.bus, ImportFollowDto, rows, {
      row: async ({ follower_id, followee_id }) => ({ status: (await this.follows.follow(follower_id, followee_id, IMPORTED)).status }),
      batch: async (batch) =>
        (await this.follows.followMany(batch.map((row) => ({ followerId: row.follower_id, followeeId: row.followee_id })), IMPORTED)).map((outcome) =>
          outcome instanceof HttpException ? outcome : { status: outcome.status },
        ),
    });
  }
}
