import { INestApplication } from '@nestjs/common';
import { ImportReport } from '@app/platform';
import { ImportedMember, MemberImportService } from '../../../../services/auth/src/import/member-import.service';
import { CatalogueImportService } from '../../../../services/reviews/src/import/catalogue-import.service';
import { FollowImportService } from '../../../../services/social/src/import/follow-import.service';
import { FollowState } from '@app/contracts';

/**
 * The services' bulk imports, called in process (docs/decisions/import.md): each runs the
 * service's own rules and emits its own events; `settle` between steps that depend on another
 * service's read model (a follow needs social to know both members from `user.registered`, a
 * review needs reviews to know its author).
 */
export interface StackImporter {
  members(rows: readonly unknown[]): Promise<ImportReport<ImportedMember>>;
  follows(rows: readonly unknown[]): Promise<ImportReport<{ status: FollowState }>>;
  products(rows: readonly unknown[]): Promise<ImportReport<{ id: string; slug: string }>>;
  reviews(rows: readonly unknown[]): Promise<ImportReport<{ id: string }>>;
  /** Waits until every event emitted so far has been handled. */
  settle(): Promise<void>;
}

/** The importer over a stack's service apps (by service name). */
export function stackImporter(apps: ReadonlyMap<string, INestApplication>, settle: () => Promise<void>): StackImporter {
  const of = (name: string) => {
    const app = apps.get(name);
    if (!app) throw new Error(`No ${name} service in this stack`);
    return app;
  };
  return {
    members: (rows) => of('auth').get(MemberImportService).import(rows),
    follows: (rows) => of('social').get(FollowImportService).import(rows),
    products: (rows) => of('reviews').get(CatalogueImportService).importProducts(rows),
    reviews: (rows) => of('reviews').get(CatalogueImportService).importReviews(rows),
    settle,
  };
}

/** The rows of a report that were refused, as one error (seeds expect none). */
export function assertAllImported<R>(what: string, report: ImportReport<R>): R[] {
  if (report.rejected.length > 0) {
    const first = report.rejected[0];
    throw new Error(`${report.rejected.length} ${what} refused by the import, the first (row ${first.index}): ${first.status} ${first.message}`);
  }
  return report.imported as R[];
}
