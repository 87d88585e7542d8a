import type { LinkCardView } from '@app/contracts';

export const SITE_NAME = 'SquadReviews';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** An absolute http(s) URL or a path on this site (not `//host`); null for anything else. */
function imageUrl(url: string | null): string | null {
  if (!url) return null;
  return /^https?:\/\//i.test(url) || (url.startsWith('/') && !url.startsWith('//')) ? url : null;
}

/** An image path made absolute on this site; an absolute http(s) URL kept; anything else dropped. */
function absolute(origin: string, url: string | null): string | null {
  const image = imageUrl(url);
  return image?.startsWith('/') ? `${origin}${image}` : image;
}

/** The head tags of a shared link's page: title, description, Open Graph and Twitter card, the rating as a label. */
export function cardTags(card: LinkCardView, origin: string, path: string): string {
  const image = absolute(origin, card.image);
  const meta: Array<[string, string, string]> = [
    ['name', 'description', card.description],
    ['property', 'og:site_name', SITE_NAME],
    ['property', 'og:type', card.type],
    ['property', 'og:title', card.title],
    ['property', 'og:description', card.description],
    ['property', 'og:url', `${origin}${path}`],
    ['name', 'twitter:card', image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', card.title],
    ['name', 'twitter:description', card.description],
  ];
  if (image) {
    meta.push(['property', 'og:image', image], ['name', 'twitter:image', image]);
    if (card.image_alt) meta.push(['property', 'og:image:alt', card.image_alt], ['name', 'twitter:image:alt', card.image_alt]);
  }
  if (card.rating !== null) {
    meta.push(['name', 'twitter:label1', 'Rating'], ['name', 'twitter:data1', `${card.rating}/5`]);
  }
  const tags = meta.map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`);
  return [`<title>${escapeHtml(`${card.title} · ${SITE_NAME}`)}</title>`, ...tags].join('\n    ');
}

/** The part of index.html's boot shell that a page's own first screen replaces (two skeleton cards). */
const FIRST_SCREEN = /<!--first-screen-->[\s\S]*?<!--\/first-screen-->/;

const SKELETON_LINES = ['60%', '35%', '90%', '78%'].map((width) => `<div class="sk sk-line" style="width: ${width}"></div>`).join('');

/**
 * The first screen of a page whose largest paint is a picture, as the page draws it: the picture at
 * the size and place the app gives it (the same classes), skeleton lines for the rest. The picture
 * is then painted from the HTML as it arrives instead of once the app has loaded, and the app's own,
 * drawn over it at the same size, does not count as a later largest paint (issue 30: LCP). A
 * product's page shows its picture; the catalogue (/products) its first card's. `data-first-screen`
 * tells the app to keep it while the page loads (web/src/shared/first-screen.tsx). Undefined
 * without a picture, or for another kind of page.
 */
export function firstScreen(card: LinkCardView): string | undefined {
  const image = imageUrl(card.image);
  if (!image) return undefined;
  const picture = (attrs: string) => `<img${attrs} src="${escapeHtml(image)}" alt="${escapeHtml(card.image_alt || card.title)}" fetchpriority="high" />`;
  if (card.type === 'product') {
    return (
      `<div class="page" data-first-screen><div class="small">&nbsp;</div><section class="card product-detail" style="margin-top: 0.6rem">` +
      `${picture(' class="hero-img"')}<div>${SKELETON_LINES}</div></section></div>`
    );
  }
  if (card.type === 'website') {
    // the catalogue's head, search box and summary line as empty boxes of their size, then its first card
    return (
      `<div class="page" data-first-screen><div class="page-head"><h1 class="page-title">&nbsp;</h1><span class="btn btn-primary">&nbsp;</span></div>` +
      `<div class="toolbar"><input disabled /><select disabled></select></div><p class="muted small">&nbsp;</p>` +
      `<div class="grid grid-2"><article class="card product-card"><div class="product-img">${picture('')}</div>` +
      `<div class="product-body">${SKELETON_LINES}</div></article></div></div>`
    );
  }
  return undefined;
}

/**
 * The app's index.html with the card's tags (its own <title> and description replaced, the rest
 * added at the end of <head>) and, when given, the page's first screen in place of the boot
 * shell's skeleton cards.
 */
export function withCard(indexHtml: string, tags: string, screen?: string): string {
  const bare = indexHtml.replace(/<title>[^<]*<\/title>\s*/i, '').replace(/<meta\s+name="description"[^>]*>\s*/i, '');
  const shown = screen === undefined ? bare : bare.replace(FIRST_SCREEN, () => `<!--first-screen-->${screen}<!--/first-screen-->`);
  return shown.replace(/<\/head>/i, `  ${tags}\n  </head>`);
}
