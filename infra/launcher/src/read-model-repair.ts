import { BaseDoc, Collection, CollectionDef, newId, Store } from '@app/store';
import { blockId, blocksCollection, mutesCollection } from '@app/platform';
import { followsCollection } from '../../../services/social/src/follows/follow.collection';
import { blocksCollection as socialBlocksCollection } from '../../../services/social/src/blocks/block.collection';
import { mutesCollection as socialMutesCollection } from '../../../services/social/src/mutes/mute.collection';
import { activitiesCollection } from '../../../services/social/src/stats/activity.collection';
import { reviewsCollection } from '../../../services/reviews/src/reviews/review.collection';
import { followEdgesCollection, followerCountsCollection } from '../../../services/reviews/src/read-models/follow-graph.collection';
import { followsCollection as notificationFollowsCollection, pairId } from '../../../services/notifications/src/read-models/relation.collection';

/** One relation of a derived view: who (`owner`, the member the sample is drawn by) relates to whom. */
type Pair = readonly [owner: string, other: string];

/**
 * A view another service keeps from the owner's events, as a set of pairs: read from the owner's
 * rows (`source`), read from the copy (`derived`), and written back when rebuilt.
 */
interface PairView {
  /** `<service>.<collection>` of the copy. */
  name: string;
  service: string;
  source: { service: string; read: (store: Store) => Promise<Pair[]> };
  derived: {
    read: (store: Store) => Promise<Pair[]>;
    /** Inserts the missing pairs and takes out the extra ones. */
    write: (store: Store, missing: Pair[], extra: Pair[]) => Promise<void>;
    /** Counters kept beside the rows, recomputed after a rebuild. */
    after?: (store: Store) => Promise<void>;
  };
}

export interface ViewReport {
  view: string;
  /** Owners compared (the sample, or everyone). */
  owners: number;
  missing: number;
  extra: number;
  /** A few of the differences, for the operator. */
  examples: string[];
  repaired: boolean;
}

const key = ([a, b]: Pair) => `${a}\u0000${b}`;

/** Pairs of `def`'s rows (fields `a` and `b`) that match `filter`. */
function pairsOf<T extends BaseDoc>(def: CollectionDef<T>, a: keyof T & string, b: keyof T & string, filter: Record<string, unknown> = {}) {
  return async (store: Store): Promise<Pair[]> => {
    const rows = store.collection(def) as Collection<BaseDoc>;
    const docs = await rows.find(filter as never, { projection: { [a]: 1, [b]: 1 } as never });
    return docs.map((d) => {
      const row = d as unknown as Record<string, unknown>;
      return [String(row[a]), String(row[b])] as const;
    });
  };
}

/** Writes a copy kept as one row per pair: missing pairs inserted (`make`), extra pairs deleted by their fields. */
function pairRows<T extends BaseDoc>(def: CollectionDef<T>, a: keyof T & string, b: keyof T & string, make: (pair: Pair) => T) {
  return async (store: Store, missing: Pair[], extra: Pair[]): Promise<void> => {
    const rows = store.collection(def);
    for (const [x, y] of extra) await rows.deleteMany({ [a]: x, [b]: y } as never);
    for (const pair of missing) {
      if ((await rows.count({ [a]: pair[0], [b]: pair[1] } as never)) === 0) await rows.insert(make(pair));
    }
  };
}

const socialBlocks = { service: 'social', read: pairsOf(socialBlocksCollection, 'blocker_id', 'blocked_id') };
const socialMutes = { service: 'social', read: pairsOf(socialMutesCollection, 'muter_id', 'muted_id') };
const socialFollows = { service: 'social', read: pairsOf(followsCollection, 'follower_id', 'followee_id', { status: 'following' }) };

const blocksCopy = (service: string): PairView => ({
  name: `${service}.blocks`,
  service,
  source: socialBlocks,
  derived: {
    read: pairsOf(blocksCollection, 'blocker_id', 'blocked_id'),
    write: pairRows(blocksCollection, 'blocker_id', 'blocked_id', ([a, b]) => ({ _id: blockId(a, b), blocker_id: a, blocked_id: b })),
  },
});

const mutesCopy = (service: string): PairView => ({
  name: `${service}.mutes`,
  service,
  source: socialMutes,
  derived: {
    read: pairsOf(mutesCollection, 'muter_id', 'muted_id'),
    write: pairRows(mutesCollection, 'muter_id', 'muted_id', ([a, b]) => ({ _id: `${a}:${b}`, muter_id: a, muted_id: b })),
  },
});

/** Every derived view the repair knows, by the service that keeps it. */
export const PAIR_VIEWS: readonly PairView[] = [
  ...['reviews', 'messaging', 'squads', 'notifications'].map(blocksCopy),
  ...['reviews', 'notifications'].map(mutesCopy),
  {
    name: 'reviews.follow_edges',
    service: 'reviews',
    source: socialFollows,
    derived: {
      read: pairsOf(followEdgesCollection, 'follower_id', 'followee_id'),
      write: pairRows(followEdgesCollection, 'follower_id', 'followee_id', ([a, b]) => ({ _id: newId(), follower_id: a, followee_id: b, created_at: new Date().toISOString() })),
      after: recountFollowers,
    },
  },
  {
    name: 'notifications.follows',
    service: 'notifications',
    source: socialFollows,
    derived: {
      read: pairsOf(notificationFollowsCollection, 'follower_id', 'followee_id'),
      write: pairRows(notificationFollowsCollection, 'follower_id', 'followee_id', ([a, b]) => ({ _id: pairId(a, b), follower_id: a, followee_id: b })),
    },
  },
  {
    // A profile's reviews_count: one active row per review the reviews service holds.
    name: 'social.activities (reviews)',
    service: 'social',
    source: { service: 'reviews', read: pairsOf(reviewsCollection, 'user_id', '_id') },
    derived: {
      read: async (store) =>
        (await pairsOf(activitiesCollection, 'user_id', '_id', { kind: 'review', active: true })(store)).map(([user, id]) => [user, id.replace(/^review:/, '')] as const),
      write: async (store, missing, extra) => {
        const rows = store.collection(activitiesCollection);
        for (const [user, id] of missing) await rows.updateOne({ _id: `review:${id}` }, { $set: { kind: 'review', user_id: user, active: true } }, { upsert: true });
        for (const [, id] of extra) await rows.updateOne({ _id: `review:${id}` }, { $set: { active: false } });
      },
    },
  },
];

/** reviews' follower counts from its edges. */
async function recountFollowers(store: Store): Promise<void> {
  const edges = await store.collection(followEdgesCollection).find({}, { projection: { followee_id: 1 } });
  const counts = new Map<string, number>();
  for (const e of edges) counts.set(e.followee_id, (counts.get(e.followee_id) ?? 0) + 1);
  const rows = store.collection(followerCountsCollection);
  for (const row of await rows.find({})) if (!counts.has(row._id)) await rows.updateOne({ _id: row._id }, { $set: { follower_count: 0 } });
  for (const [id, n] of counts) await rows.updateOne({ _id: id }, { $set: { follower_count: n } }, { upsert: true });
}

export interface RepairOptions {
  /** Each service's store, open. */
  stores: ReadonlyMap<string, Store>;
  /** Only the views this service keeps. */
  service?: string;
  /** `check` compares; `rebuild` also rewrites every view that differs (services stopped). */
  mode: 'check' | 'rebuild';
  /** Check this many owners drawn at random (every owner when absent, and always on a rebuild). */
  sample?: number;
  log?: (line: string) => void;
}

/**
 * The repair path of issue 46: each derived view recomputed from the owner's rows and compared
 * with the copy the service keeps (a sample of members, or all of them), and on `rebuild` put
 * right. The composition root is the one place allowed to read every service's store.
 */
export async function repairReadModels(options: RepairOptions): Promise<ViewReport[]> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const reports: ViewReport[] = [];
  for (const view of PAIR_VIEWS.filter((v) => !options.service || v.service === options.service)) {
    const source = options.stores.get(view.source.service);
    const copy = options.stores.get(view.service);
    if (!source || !copy) continue;
    const everyone = await view.source.read(source);
    const held = await view.derived.read(copy);
    const owners = options.mode === 'check' && options.sample ? drawn([...new Set([...everyone, ...held].map(([a]) => a))], options.sample) : undefined;
    const inSample = (pairs: Pair[]) => (owners ? pairs.filter(([a]) => owners.has(a)) : pairs);
    const expected = new Map(inSample(everyone).map((p) => [key(p), p]));
    const actual = new Map(inSample(held).map((p) => [key(p), p]));
    const missing = [...expected].filter(([k]) => !actual.has(k)).map(([, p]) => p);
    const extra = [...actual].filter(([k]) => !expected.has(k)).map(([, p]) => p);
    const report: ViewReport = {
      view: view.name,
      owners: owners?.size ?? new Set([...expected.values(), ...actual.values()].map(([a]) => a)).size,
      missing: missing.length,
      extra: extra.length,
      examples: [...missing.map(([a, b]) => `missing ${a} -> ${b}`), ...extra.map(([a, b]) => `extra ${a} -> ${b}`)].slice(0, 5),
      repaired: false,
    };
    if (options.mode === 'rebuild' && (missing.length > 0 || extra.length > 0)) {
      await view.derived.write(copy, missing, extra);
      await view.derived.after?.(copy);
      report.repaired = true;
    }
    reports.push(report);
    const state = missing.length + extra.length === 0 ? 'matches' : `${missing.length} missing, ${extra.length} extra${report.repaired ? ', rebuilt' : ''}`;
    log(`${view.name}: ${report.owners} members compared with ${view.source.service}: ${state}${report.examples.length ? ` (${report.examples.join('; ')})` : ''}`);
  }
  return reports;
}

function drawn(ids: string[], n: number): Set<string> {
  const pool = [...ids];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return new Set(pool.slice(0, n));
}
