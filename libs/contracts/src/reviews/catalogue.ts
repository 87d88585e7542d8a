/** Product categories of spec part 1 §9 ('All' is the client's "no filter"). */
export const PRODUCT_CATEGORIES = ['Electronics', 'Fitness', 'Kitchen', 'Home', 'Beauty', 'Fashion'] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

export const REVIEW_CONTENT_MAX = 5000;
export const REVIEW_TITLE_MAX = 200;
export const REVIEW_IMAGES_MAX = 10;
/** An image's description (alt text, issue 21 §7). */
export const IMAGE_ALT_MAX = 300;
export const COMMENT_MAX = 2000;
export const MEDIA_MAX_BYTES = 2 * 1024 * 1024;

/** Where uploaded media is served; documents keep this URL, never the bytes. */
export const MEDIA_URL_PREFIX = '/api/media/';
/**
 * A picture reference: one of this site's uploads, as POST /api/media issues it. Never an outside
 * URL (issue 45 §6): it would become every viewer's <img> and a shared link's og:image, a beacon
 * that tells its owner who looked (link-preview bots fetch it whatever the CSP says).
 */
export const MEDIA_URL_PATTERN = /^\/api\/media\/[A-Za-z0-9_-]{1,64}$/;
/** The refusal of anything else, for the field named. */
export const mediaUrlMessage = (field: string): string => `${field} must be a picture uploaded here (the /api/media/{id} address POST /api/media returns)`;

/**
 * Ratings go in half-star steps from 0.5 to 5 (issue 21 §1). Whole numbers are steps too, so
 * ratings stored before half stars stay valid as they are.
 */
export const RATING_MIN = 0.5;
export const RATING_MAX = 5;
export function isRatingStep(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value * 2) && value >= RATING_MIN && value <= RATING_MAX;
}

/** The spec's text (part 1 §5), kept as written though the steps now include halves. */
export const RATING_MESSAGE = 'Geçerli bir puanlama (1-5 arası) zorunludur';
export const DUPLICATE_REVIEW_MESSAGE = 'You have already reviewed this product';
