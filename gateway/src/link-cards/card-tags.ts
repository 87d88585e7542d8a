import { MEDIA_URL_PATTERN, withoutControls, type LinkCardView } from '@app/contracts';

export const SITE_NAME = 'SquadReviews';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Escaped for HTML, with the control and direction characters names stored before issue 45 §3 may hold taken out. */
const escapeHtml = (text: string) => withoutControls(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/**
 * A picture uploaded here (/api/media/{id}); null for anything else. Pictures stored before
 * issue 45 §6 may point elsewhere: a card never names them, so no link-preview bot fetches them.
 */
function imageUrl(url: string | null): string | null {
  return url && MEDIA_URL_PATTERN.test(url) ? url : null;
}

/** An uploaded picture's path made absolute on this site; anything else dropped. */
function absolute(origin: string, url: string | null): string | null {
  const image = imageUrl(url);
  return image ? `${origin}${image}` : null;
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
 * A page's first screen as the page draws it, in place of the boot shell's skeleton cards: what
 * makes its largest paint (a picture, or a profile's text) at the size and place the app gives it
 * (the same classes), boxes and skeleton lines for the rest. That paint then happens as the HTML
 * arrives instead of once the app has loaded, and the app's own, drawn over it at the same size,
 * does not count as a later largest paint (issue 30: LCP). A product's page shows its picture, the
 * catalogue (/products) its first card's, a profile its head. `data-first-screen` tells the app to
 * keep it while the page loads (web/src/shared/first-screen.tsx). Undefined when there is nothing
 * to draw (a product without a picture, a review).
 */
export function firstScreen(card: LinkCardView): string | undefined {
  if (card.type === 'profile') return profileScreen(card);
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

const AVATAR_PX = 104;

/**
 * A profile's head as its page draws it (the banner, the picture or an empty circle, the name, the
 * handle, the bio): the page's largest paint is the bio or the name, text that paints as the HTML
 * arrives. The buttons, the joined date and the counters are boxes of their size.
 */
function profileScreen({ person, image: url, image_alt }: LinkCardView): string | undefined {
  if (!person) return undefined;
  const image = imageUrl(url);
  const box = `width: ${AVATAR_PX}px; height: ${AVATAR_PX}px`;
  const avatar = image
    ? `<img class="avatar" src="${escapeHtml(image)}" alt="${escapeHtml(image_alt || person.name)}" width="${AVATAR_PX}" height="${AVATAR_PX}" style="${box}" />`
    : `<span class="avatar sk" style="${box}"></span>`;
  const counter = '<div class="counter"><b>&nbsp;</b><span class="muted small">&nbsp;</span></div>';
  return (
    `<div class="page" data-first-screen><section class="card"><div class="profile-banner"></div><div class="profile-head">${avatar}` +
    `<div class="profile-name"><h1 style="margin-bottom: 0">${escapeHtml(person.name)}</h1><div class="muted">@${escapeHtml(person.username)}</div></div>` +
    `<div class="row gap"><span class="btn">&nbsp;</span></div></div>` +
    // the bio's own line breaks stay (pre-wrap, as the app draws it)
    (person.bio ? `<p class="pre-wrap">${person.bio.split('\n').map(escapeHtml).join('\n')}</p>` : '') +
    `<div class="muted small">&nbsp;</div><div class="counters">${counter.repeat(3)}</div></section></div>`
  );
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
