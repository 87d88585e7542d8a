import { Inject, Injectable } from '@nestjs/common';
import { Collection, newId, STORE, Store } from '@app/store';
import { ProductDoc, productsCollection, productSearchKey } from './product.collection';
import { CATALOGUE_STAMP, CatalogueStampDoc, catalogueStampCollection } from './catalogue-stamp.collection';

/** What the catalogue's search reads of a product. */
type KeyedProduct = Pick<ProductDoc, '_id' | 'created_at' | 'category'> & { search_key: string };

/** Products kept per replica: 10,000 keys are about 2 MB. */
const DEFAULT_CAPACITY = 10_000;

/**
 * The catalogue's search keys in memory (issue 28). A substring search tests every product's key,
 * which no index narrows: in the store that is a scan of an index on every request (a tenth of a
 * search's CPU). Each replica keeps the keys, newest first (ties by id, as the store orders them),
 * and one read of the catalogue's stamp (the document cache answers it while nothing changed)
 * tells it whether they are still the stored ones. Every change to a product's key, category or
 * existence moves the stamp in its own transaction (`changing`). A catalogue larger than
 * `capacity`, or holding products whose key the boot fill has not set yet, is searched in the store.
 */
@Injectable()
export class CatalogueSearchService {
  private readonly products: Collection<ProductDoc>;
  private readonly stamps: Collection<CatalogueStampDoc>;
  /** `products` null: the catalogue at that stamp is not kept (too large, or keys missing). */
  private copy?: { stamp: string; products: readonly KeyedProduct[] | null };
  readonly capacity = Number(process.env.CATALOGUE_SEARCH_CAPACITY) || DEFAULT_CAPACITY;

  constructor(@Inject(STORE) private readonly store: Store) {
    this.products = store.collection(productsCollection);
    this.stamps = store.collection(catalogueStampCollection);
  }

  /**
   * One page of the ids of the products whose key contains the query's (in `category` when
   * given), newest first, and how many match in all; undefined when the copy is not kept (the
   * caller asks the store).
   */
  async page(search: string, category: string | undefined, skip: number, limit: number): Promise<{ ids: string[]; total: number } | undefined> {
    const products = await this.current();
    if (!products) return undefined;
    const needle = productSearchKey.needle(search);
    const ids: string[] = [];
    let total = 0;
    for (const product of products) {
      if ((category !== undefined && product.category !== category) || !product.search_key.includes(needle)) continue;
      if (total >= skip && ids.length < limit) ids.push(product._id);
      total++;
    }
    return { ids, total };
  }

  /** Runs a change to a product's key, category or existence and moves the stamp with it (one transaction where the engine has them). */
  async changing<R>(change: () => Promise<R>): Promise<R> {
    const run = async () => {
      const result = await change();
      this.copy = undefined;
      await this.stamps.updateOne({ _id: CATALOGUE_STAMP }, { $set: { stamp: newId() } }, { upsert: true });
      return result;
    };
    return this.store.transaction ? this.store.transaction(run) : run();
  }

  private async current(): Promise<readonly KeyedProduct[] | null> {
    const stamp = (await this.stamps.findById(CATALOGUE_STAMP))?.stamp ?? '';
    if (this.copy?.stamp === stamp) return this.copy.products;
    // The stamp was read before the rows: a change in between leaves a newer stamp, and the next search loads again.
    const rows = await this.products.find(
      {},
      { sort: { created_at: -1, _id: 1 }, limit: this.capacity + 1, projection: { _id: 1, created_at: 1, category: 1, search_key: 1 } },
    );
    const kept = rows.length <= this.capacity && rows.every((row) => typeof row.search_key === 'string');
    this.copy = { stamp, products: kept ? (rows as KeyedProduct[]) : null };
    return this.copy.products;
  }
}
