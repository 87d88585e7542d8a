import { deflateSync } from 'node:zlib';
import { SeedContext, SeededUser } from './seed-client';
import { assertAllImported } from './stack-importer';

type Category = 'Electronics' | 'Fitness' | 'Kitchen' | 'Home' | 'Beauty' | 'Fashion';

interface DemoProduct {
  name: string;
  brand: string;
  price: number;
  category: Category;
  description: string;
  features: string[];
  /** Picture colours: background and stripe. */
  colours: [number, number, number][];
}

const PRODUCTS: DemoProduct[] = [
  { name: 'Mechanical Keyboard', brand: 'Keychron', price: 149.99, category: 'Electronics', description: 'Hot-swappable 75% board with a volume knob.', features: ['Hot-swap switches', 'Bluetooth 5.1', 'RGB backlight'], colours: [[40, 44, 52], [97, 175, 239]] },
  { name: 'Wireless Earbuds', brand: 'Soundcore', price: 199.99, category: 'Electronics', description: 'Noise-cancelling earbuds with a 30 hour case.', features: ['ANC', 'Wireless charging', 'IPX4'], colours: [[245, 245, 245], [30, 30, 30]] },
  { name: 'Gaming Monitor', brand: 'Dell', price: 499.99, category: 'Electronics', description: '27 inch 165 Hz IPS panel.', features: ['165 Hz', '1 ms', 'HDR400'], colours: [[20, 20, 60], [220, 50, 90]] },
  { name: 'Adjustable Dumbbells', brand: 'Bowflex', price: 349, category: 'Fitness', description: 'From 2 to 24 kg with one dial.', features: ['15 weight settings', 'Compact tray'], colours: [[60, 60, 60], [230, 120, 30]] },
  { name: 'Yoga Mat', brand: 'Manduka', price: 89.5, category: 'Fitness', description: 'Thick, non-slip natural rubber mat.', features: ['6 mm', 'Non-slip', 'Lifetime guarantee'], colours: [[120, 80, 160], [200, 180, 230]] },
  { name: 'Portable Espresso Maker', brand: 'Wacaco', price: 59.9, category: 'Kitchen', description: 'Hand-pumped espresso anywhere.', features: ['18 bar', 'No batteries'], colours: [[90, 60, 40], [210, 180, 140]] },
  { name: 'Air Fryer', brand: 'Philips', price: 129, category: 'Kitchen', description: 'Crispy results with little oil.', features: ['4.1 L', 'Dishwasher-safe basket'], colours: [[25, 25, 25], [200, 200, 200]] },
  { name: 'Linen Duvet Cover', brand: 'Brooklinen', price: 179, category: 'Home', description: 'Stone-washed linen that gets softer.', features: ['100% linen', 'Button closure'], colours: [[230, 220, 200], [170, 150, 120]] },
  { name: 'Smart Desk Lamp', brand: 'BenQ', price: 199, category: 'Home', description: 'Auto-dimming lamp for long evenings.', features: ['Auto-dimming', 'USB-C'], colours: [[250, 240, 200], [60, 60, 60]] },
  { name: 'Vitamin C Serum', brand: 'The Ordinary', price: 12.8, category: 'Beauty', description: 'Brightening serum for daily use.', features: ['23% vitamin C', 'Vegan'], colours: [[250, 200, 120], [255, 255, 255]] },
  { name: 'Hair Dryer', brand: 'Dyson', price: 429, category: 'Beauty', description: 'Fast drying without extreme heat.', features: ['Intelligent heat control', '5 attachments'], colours: [[200, 60, 140], [120, 120, 130]] },
  { name: 'Leather Sneakers', brand: 'Veja', price: 150, category: 'Fashion', description: 'Everyday sneakers in vegetable-tanned leather.', features: ['Organic cotton laces', 'Rubber sole'], colours: [[250, 250, 250], [40, 90, 60]] },
  { name: 'Rain Jacket', brand: 'Patagonia', price: 179, category: 'Fashion', description: 'Packable waterproof shell.', features: ['H2No membrane', 'Packs into its pocket'], colours: [[20, 60, 110], [250, 200, 40]] },
];

const REVIEW_TEXTS: [number, string][] = [
  [5, 'Exceeded what I expected for the price. Using it every day. #worththemoney'],
  [4, 'Very good overall; a couple of small things could be better.'],
  [5, 'Build quality is excellent and it shows in daily use.'],
  [3, 'Does the job, nothing more. Fine if you find it on sale. #onsale'],
  [4, 'Solid choice. Took a week to get used to, now I love it.'],
  [2, 'Looked great in photos but mine had a small defect.'],
];

const COMPOSER_POSTS = [
  'Sunday market haul: found a great coffee stand near the harbour. #coffee',
  'Anyone tried standing desks for long? Thinking about getting one. #workfromhome',
  'Finally organised my kitchen drawers. Small wins. #tidyhome',
];

const COMMENTS = ['Thanks, this helped me decide!', 'How long have you had it?', 'Same experience here.', 'Good to know, adding it to my list.'];

/** CRC-32 as PNG chunks need it. */
function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A small RGB PNG: a background with a diagonal stripe, enough to tell products apart. */
export function productPicture([bg, stripe]: [number, number, number][], size = 96): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit depth, truecolour, no interlace
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0, then pixels
    for (let x = 0; x < size; x++) row.set(Math.abs(x - y) < size / 6 ? stripe : bg, 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const pick = <T>(list: T[], i: number): T => list[i % list.length];

/** Private members' reviews are visible only to themselves and their approved followers. */
function canSee(ctx: SeedContext, viewer: SeededUser, author: SeededUser): boolean {
  if (viewer.id === author.id || !(ctx.made.privateMembers ?? []).includes(author.id)) return true;
  return (ctx.made[`approvedFollowers:${author.id}`] ?? []).includes(viewer.id);
}

/** Demo data of services/reviews: products in every category (with their pictures) through the API, reviews through the import, likes and comments through the API. */
export async function seedReviews(ctx: SeedContext): Promise<void> {
  const users = ctx.users;
  if (users.length === 0) return;
  await ctx.settle(); // author cards come from user.registered
  const productIds: string[] = [];
  for (const [i, p] of PRODUCTS.entries()) {
    const owner = pick(users, i);
    const media = await ctx.client.upload(owner.token, productPicture(p.colours), `${i}.png`, 'image/png');
    const { colours: _colours, ...fields } = p;
    const made = await ctx.client.request<{ id: string }>('POST', '/products', owner.token, { ...fields, image: media.url });
    productIds.push(made.id);
  }
  ctx.made.products = productIds;

  // Reviews through the reviews import: the same rules (one per member and product) and events.
  const rows: { user_id: string; product_id?: string; rating?: number; title?: string; content: string; location?: string }[] = [];
  const authors: SeededUser[] = [];
  const reviewers = Math.min(3, Math.max(users.length - 1, 1));
  for (const [i, productId] of productIds.entries()) {
    for (let k = 1; k <= reviewers; k++) {
      const author: SeededUser = pick(users, i + k);
      const [rating, content] = pick(REVIEW_TEXTS, i * 3 + k);
      rows.push({ user_id: author.id, product_id: productId, rating, title: PRODUCTS[i].name, content });
      authors.push(author);
    }
  }
  for (const [i, content] of COMPOSER_POSTS.entries()) {
    const author = pick(users, i);
    rows.push({ user_id: author.id, content, location: pick(['Istanbul', 'Izmir', 'Ankara'], i) });
    authors.push(author);
  }
  const reviewIds = assertAllImported('demo reviews', await ctx.importer.reviews(rows)).map((r) => r.id);
  const authorOf = new Map(reviewIds.map((id, i) => [id, authors[i]]));
  await ctx.settle(); // feeds, activities and counters of the reviews before likes and comments
  ctx.made.reviews = reviewIds;

  // Likes and comments of different reviews do not depend on each other: send them together.
  await Promise.all(
    reviewIds.map(async (reviewId, i) => {
      const author = authorOf.get(reviewId) as SeededUser;
      const likers = new Set(Array.from({ length: 1 + (i % 3) }, (_, k) => pick(users, i + k + 2)));
      for (const liker of likers) {
        if (canSee(ctx, liker, author)) await ctx.client.request('POST', `/likes/reviews/${reviewId}`, liker.token);
      }
      const commenter = pick(users, i + 4);
      if (i % 3 === 0 && canSee(ctx, commenter, author)) {
        await ctx.client.request('POST', `/reviews/${reviewId}/comments`, commenter.token, { content: pick(COMMENTS, i) });
      }
    }),
  );
}
