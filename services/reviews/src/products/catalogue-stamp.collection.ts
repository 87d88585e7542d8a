import { defineCollection } from '@app/store';

/**
 * One row whose stamp (a fresh random value) every change to what the catalogue's search reads
 * moves: a product added, renamed, re-described, moved to another category or deleted. A replica
 * keeps the catalogue's search keys in memory and trusts them while the stored stamp is the one it
 * loaded with (catalogue-search.service.ts).
 */
export interface CatalogueStampDoc {
  _id: string;
  stamp: string;
}

export const CATALOGUE_STAMP = 'catalogue';

export const catalogueStampCollection = defineCollection<CatalogueStampDoc>('catalogue_stamp', [], { cacheById: 1 });
