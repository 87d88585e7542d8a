import { Inject, Injectable } from '@nestjs/common';
import {
  AddListItemDto,
  CreateListDto,
  ListItemView,
  ListView,
  ListVisibility,
  UpdateListDto,
} from '@app/contracts';
import { Collection, DuplicateKeyError, STORE, Store } from '@app/store';
import { AudienceService } from '../audience/audience.service';
import { ProductsService } from '../products/products.service';
import { FollowGraphService } from '../read-models/follow-graph.service';
import { ReviewsException } from '../reviews.errors';
import { UserCardsService } from '../users/user-cards.service';
import { ListDoc, listItemsCollection, ListItemDoc, listsCollection } from './lists.collection';

export const DEFAULT_LIST_NAME = 'Want to try';

/** A member's "Want to try" list, empty. */
function defaultList(userId: string, now: string): Omit<ListDoc, '_id'> {
  return { user_id: userId, name: DEFAULT_LIST_NAME, description: null, visibility: 'private', default_of: userId, item_count: 0, created_at: now, updated_at: now };
}

/**
 * Members' product lists (issue 21 §4). Who sees a list: its owner always; nobody blocked either
 * way; a public list whoever may see the owner's reviews (account privacy holds), a followers list
 * the owner's followers, a private list nobody else. A list the viewer may not see is a 404.
 */
@Injectable()
export class ListsService {
  private readonly lists: Collection<ListDoc>;
  private readonly items: Collection<ListItemDoc>;

  constructor(
    @Inject(STORE) store: Store,
    private readonly audience: AudienceService,
    private readonly graph: FollowGraphService,
    private readonly products: ProductsService,
    private readonly cards: UserCardsService,
  ) {
    this.lists = store.collection(listsCollection);
    this.items = store.collection(listItemsCollection);
  }

  /** The member's "Want to try" list, created on first use; private until the owner says otherwise. */
  async ensureDefault(userId: string): Promise<void> {
    if (await this.lists.findOne({ default_of: userId })) return;
    try {
      await this.lists.insert(defaultList(userId, new Date().toISOString()));
    } catch (err) {
      // Created meanwhile by a concurrent first use or a redelivered user.registered.
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  /** `ensureDefault` for each of `userIds`: one read and one insert for the lot, one by one when the insert is refused. */
  async ensureDefaults(userIds: readonly string[]): Promise<void> {
    const had = new Set((await this.lists.find({ default_of: { $in: [...new Set(userIds)] } }, { projection: { default_of: 1 } })).map((l) => l.default_of));
    const lacking = [...new Set(userIds)].filter((id) => !had.has(id));
    if (lacking.length === 0) return;
    const now = new Date().toISOString();
    try {
      await this.lists.insertMany(lacking.map((id) => defaultList(id, now)));
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      for (const id of lacking) await this.ensureDefault(id);
    }
  }

  async create(userId: string, dto: CreateListDto): Promise<ListView> {
    await this.ensureDefault(userId);
    const now = new Date().toISOString();
    const doc = await this.lists.insert({
      user_id: userId,
      name: dto.name,
      description: dto.description || null,
      visibility: dto.visibility,
      item_count: 0,
      created_at: now,
      updated_at: now,
    });
    return (await this.views([doc]))[0];
  }

  async update(userId: string, id: string, dto: UpdateListDto): Promise<ListView> {
    const list = await this.owned(userId, id);
    if (list.default_of && dto.name !== undefined && dto.name !== list.name) {
      throw new ReviewsException('DEFAULT_LIST_FIXED', 'The Want to try list cannot be renamed');
    }
    const change: Partial<ListDoc> = { updated_at: new Date().toISOString() };
    if (dto.name !== undefined) change.name = dto.name;
    if (dto.description !== undefined) change.description = dto.description || null;
    if (dto.visibility !== undefined) change.visibility = dto.visibility;
    await this.lists.updateOne({ _id: id }, { $set: change });
    return (await this.views([{ ...list, ...change }]))[0];
  }

  async remove(userId: string, id: string): Promise<{ deleted: true }> {
    const list = await this.owned(userId, id);
    if (list.default_of) throw new ReviewsException('DEFAULT_LIST_FIXED', 'The Want to try list cannot be deleted');
    await this.lists.deleteOne({ _id: id });
    await this.items.deleteMany({ list_id: id });
    return { deleted: true };
  }

  /** Adding a product twice keeps one entry; a given note replaces the stored one. */
  async addItem(userId: string, id: string, dto: AddListItemDto): Promise<{ product_id: string; in_list: true }> {
    await this.owned(userId, id);
    if (!(await this.products.findById(dto.product_id))) throw new ReviewsException('PRODUCT_NOT_FOUND', 'Product not found');
    try {
      await this.items.insert({ list_id: id, product_id: dto.product_id, note: dto.note || null, added_at: new Date().toISOString() });
      // Counted only when the row really appeared.
      await this.lists.updateOne({ _id: id }, { $inc: { item_count: 1 } });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      if (dto.note !== undefined) await this.items.updateOne({ list_id: id, product_id: dto.product_id }, { $set: { note: dto.note || null } });
    }
    return { product_id: dto.product_id, in_list: true };
  }

  async removeItem(userId: string, id: string, productId: string): Promise<{ product_id: string; in_list: false }> {
    await this.owned(userId, id);
    if ((await this.items.deleteOne({ list_id: id, product_id: productId })) > 0) {
      await this.lists.updateOne({ _id: id, item_count: { $gte: 1 } }, { $inc: { item_count: -1 } });
    }
    return { product_id: productId, in_list: false };
  }

  /**
   * A member's lists the viewer may see, oldest first (so "Want to try" leads); the owner's own
   * include the default. With `productId`, each says whether it holds that product (one query).
   */
  async listsOf(ownerId: string, viewerId: string, skip: number, limit: number, productId?: string): Promise<{ items: ListView[]; total: number }> {
    if (ownerId === viewerId) await this.ensureDefault(viewerId);
    const allowed = await this.visibleKinds(ownerId, viewerId);
    if (allowed.length === 0) return { items: [], total: 0 };
    const filter = { user_id: ownerId, visibility: { $in: allowed } };
    const [docs, total] = await Promise.all([
      this.lists.find(filter, { sort: { created_at: 1, _id: 1 }, skip, limit }),
      this.lists.count(filter),
    ]);
    // The default list first whatever its age: created lazily, it can be younger than others.
    docs.sort((a, b) => Number(Boolean(b.default_of)) - Number(Boolean(a.default_of)));
    const views = await this.views(docs);
    if (productId === undefined) return { items: views, total };
    const holding = new Set(
      (await this.items.find({ list_id: { $in: docs.map((d) => d._id) }, product_id: productId }, { projection: { list_id: 1 } })).map((r) => r.list_id),
    );
    return { items: views.map((v) => ({ ...v, has_product: holding.has(v.id) })), total };
  }

  async get(id: string, viewerId: string, skip: number, limit: number): Promise<{ list: ListView; items: ListItemView[]; total: number }> {
    const list = await this.visible(id, viewerId);
    const [rows, total] = await Promise.all([
      this.items.find({ list_id: id }, { sort: { added_at: -1, _id: -1 }, skip, limit }),
      this.items.count({ list_id: id }),
    ]);
    const docs = await this.products.cardsFor(rows.map((r) => r.product_id));
    const present = rows.filter((r) => docs.has(r.product_id));
    const views = await this.products.views(present.map((r) => docs.get(r.product_id)!), viewerId);
    const items = present.map((r, i) => ({ product: views[i], note: r.note, added_at: r.added_at }));
    return { list: (await this.views([list]))[0], items, total };
  }

  private async visibleKinds(ownerId: string, viewerId: string): Promise<ListVisibility[]> {
    if (ownerId === viewerId) return ['public', 'followers', 'private'];
    if (await this.audience.isBlockedEitherWay(viewerId, ownerId)) return [];
    if (await this.graph.follows(viewerId, ownerId)) return ['public', 'followers'];
    return (await this.audience.isRestricted(ownerId)) ? [] : ['public'];
  }

  private async visible(id: string, viewerId: string): Promise<ListDoc> {
    const list = await this.lists.findById(id);
    if (!list || !(await this.visibleKinds(list.user_id, viewerId)).includes(list.visibility)) {
      throw new ReviewsException('LIST_NOT_FOUND', 'List not found');
    }
    return list;
  }

  /** Only the owner changes a list; one the viewer cannot see stays a 404 rather than revealing it exists. */
  private async owned(userId: string, id: string): Promise<ListDoc> {
    const list = await this.visible(id, userId);
    if (list.user_id !== userId) throw new ReviewsException('NOT_LIST_OWNER', 'Only the owner can change this list');
    return list;
  }

  private async views(docs: ListDoc[]): Promise<ListView[]> {
    const cards = await this.cards.cardsFor(docs.map((d) => d.user_id));
    return docs.map((d) => ({
      id: d._id,
      owner: cards.get(d.user_id)!,
      name: d.name,
      description: d.description,
      visibility: d.visibility,
      is_default: Boolean(d.default_of),
      item_count: d.item_count,
      created_at: d.created_at,
      updated_at: d.updated_at,
    }));
  }
}
